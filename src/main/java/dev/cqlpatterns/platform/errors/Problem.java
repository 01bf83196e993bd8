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
public record Problem(
        String type,
        String title,
        int status,
        String detail,
        List<FieldError> errors,
        String traceId) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public Problem(String type, String title, int status, String detail, List<FieldError> errors) {
        this(type, title, status, detail, errors, null);
    }

    /** The same problem, tagged with the request's trace id (none when tracing is off). */
    public Problem withTraceId(String traceId) {
        return new Problem(type, title, status, detail, errors, traceId);
    }

    public record FieldError(
            String field,
            String message) {
    }
}
