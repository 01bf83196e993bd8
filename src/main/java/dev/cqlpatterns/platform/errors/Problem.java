package dev.cqlpatterns.platform.errors;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * An RFC 9457 problem detail: every error this service answers has this shape. Its OpenAPI
 * schema is written by {@code ContractFilter}. {@code traceId} (an extension member) is the W3C
 * trace id of the request when tracing is on: the key to its spans and log lines, for a user's
 * error report.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, List<FieldError> errors, String traceId) {

    public static final String MEDIA_TYPE = "application/problem+json";
    /** The longest title, detail and field message, in code points; the contract says the same. */
    public static final int TEXT_MAX = 1000;
    /** The longest field name (a JSON path or a parameter's name). */
    public static final int FIELD_MAX = 256;

    /**
     * What a problem shows is cut to its limit and made one line: a detail or a field can echo what the
     * caller sent (an unknown property of a 1 MiB body, escaped control characters in it), and a
     * problem must not carry that back whole, nor break a log line or a terminal that shows it.
     */
    public Problem {
        title = shown(title, TEXT_MAX);
        detail = shown(detail, TEXT_MAX);
    }

    public Problem(String type, String title, int status, String detail, List<FieldError> errors) {
        this(type, title, status, detail, errors, null);
    }

    /** The same problem, tagged with the request's trace id (none when tracing is off). */
    public Problem withTraceId(String traceId) {
        return new Problem(type, title, status, detail, errors, traceId);
    }

    public record FieldError(String field, String message) {
        public FieldError {
            field = shown(field, FIELD_MAX);
            message = shown(message, TEXT_MAX);
        }
    }

    /** {@code value} with each control character as U+FFFD, and cut to {@code max} code points (the last one "…"). */
    static String shown(String value, int max) {
        if (value == null) {
            return null;
        }
        StringBuilder out = new StringBuilder(Math.min(value.length(), max * 2));
        int count = 0;
        for (int i = 0; i < value.length(); ) {
            int c = value.codePointAt(i);
            i += Character.charCount(c);
            if (++count == max && i < value.length()) {
                return out.append('\u2026').toString();
            }
            out.appendCodePoint(Character.isISOControl(c) ? 0xFFFD : c);
        }
        return out.toString();
    }
}
