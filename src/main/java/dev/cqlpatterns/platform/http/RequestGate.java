package dev.cqlpatterns.platform.http;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.platform.errors.Problems;
import dev.cqlpatterns.platform.observability.RequestIds;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.json.Json;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.io.ByteArrayOutputStream;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * Refuses, before any route runs or any of the body is read, the requests no route should see,
 * each with a problem+json answer that says what is wrong:
 * <ul>
 * <li>413: a declared body length over {@code quarkus.http.limits.max-body-size} (Quarkus enforces
 * the same limit on chunked bodies, with a plain 413);</li>
 * <li>400: no Host header, a path or query whose percent-escapes are not UTF-8 (Vert.x would
 * decode them to U+FFFD and a song by "ab\uFFFDcd" would be stored), or an Idempotency-Key that is
 * empty (it was taken as absent, and a retry stored a second message) or not 1 to 200 visible
 * ASCII characters;</li>
 * <li>415: a body without a Content-Type (the contract says application/json);</li>
 * <li>403: an Origin that is neither the service's own nor listed in CORS_ORIGINS, as a problem where
 * Quarkus's CORS filter would answer a bare 403;</li>
 * <li>406: an Accept header that admits no JSON: a DELETE with {@code Accept: application/xml}
 * deleted first and complained after; 400 naming Accept when it is no list of media ranges at all
 * ({@code Accept: ;;;}, a q that is no qvalue).</li>
 * </ul>
 * Management routes under {@code /q/} answer other media types and are left to Quarkus. Failures
 * that reach the router unanswered (outside the REST layer) also get a problem instead of
 * Quarkus's default error page.
 */
@ApplicationScoped
public class RequestGate {
    private static final Logger LOG = Logger.getLogger(RequestGate.class);
    private static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    private static final Pattern IDEMPOTENCY_KEY_VALUE = Pattern.compile("[\\x21-\\x7E]{1,200}");

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    MemorySize maxBodySize;

    /** The origins CORS admits besides the service's own (CORS_ORIGINS); Quarkus's CORS filter decides. */
    @ConfigProperty(name = "quarkus.http.cors.origins")
    Optional<List<String>> corsOrigins;

    void install(@Observes Router router) {
        long max = maxBodySize.asLongValue();
        router.route().order(Integer.MIN_VALUE).handler(rc -> {
            HttpServerRequest request = rc.request();
            String length = request.getHeader("Content-Length");
            if (length != null && declaredLength(length) > max) {
                rc.response().putHeader("Connection", "close");
                refuse(
                        rc,
                        413,
                        "payload-too-large",
                        "Payload too large",
                        "The request body is over the limit of " + max + " bytes");
            } else if (request.authority() == null) {
                refuse(rc, 400, "validation", "Invalid request", "The request has no Host header");
            } else if (!validIdempotencyKey(request.headers().getAll(IDEMPOTENCY_KEY))) {
                refuseField(rc, IDEMPOTENCY_KEY, "must be one header of 1 to 200 visible ASCII characters");
            } else if (!isUtf8(request.uri())) {
                refuse(rc, 400, "validation", "Invalid request", "The URL's percent-escapes are not valid UTF-8");
            } else if (request.path().startsWith("/q/")) {
                rc.next();
            } else if (!originMayPass(
                    request.getHeader("Origin"), request.authority().toString())) {
                // Quarkus's CORS filter would answer a bare 403 without a body.
                refuse(
                        rc,
                        403,
                        "origin-not-allowed",
                        "Origin not allowed",
                        "Browsers may call this API from its own origin and from those CORS_ORIGINS lists only");
            } else if (hasBody(request) && isBlank(request.getHeader("Content-Type"))) {
                refuse(
                        rc,
                        415,
                        "unsupported-media-type",
                        "Unsupported media type",
                        "The body has no Content-Type; send it as application/json");
            } else {
                switch (acceptance(String.join(",", request.headers().getAll("Accept")))) {
                    case MALFORMED ->
                        refuseField(
                                rc,
                                "Accept",
                                "is not a list of media ranges such as application/json (RFC 9110, 12.5.1)");
                    case NO_JSON ->
                        refuse(
                                rc,
                                406,
                                "not-acceptable",
                                "Not acceptable",
                                "This API answers application/json and application/problem+json only");
                    case JSON -> rc.next();
                }
            }
        });
        router.route().order(Integer.MIN_VALUE).failureHandler(rc -> {
            int status = rc.statusCode() >= 400 && rc.statusCode() < 500 ? rc.statusCode() : 500;
            if (status == 500) {
                LOG.error("Unexpected failure before the REST layer", rc.failure());
            }
            if (rc.response().headWritten()) {
                rc.response().end();
            } else if (status == 500) {
                refuse(
                        rc,
                        500,
                        "internal-error",
                        "Internal error",
                        "Something unexpected went wrong; it has been logged");
            } else if (rc.request().authority() == null) {
                refuse(rc, 400, "validation", "Invalid request", "The request has no Host header");
            } else {
                refuse(rc, status, "invalid-request", "Invalid request", "The request could not be handled as sent");
            }
        });
    }

    private static void refuse(RoutingContext rc, int status, String slug, String title, String detail) {
        answer(rc, Problems.of(status, slug, title, detail));
    }

    /** A 400 that names the field, as the REST layer's validation problems do. */
    private static void refuseField(RoutingContext rc, String field, String message) {
        answer(rc, Problems.ofField(field, message));
    }

    private static void answer(RoutingContext rc, Problem problem) {
        named(rc)
                .setStatusCode(problem.status())
                .putHeader("Content-Type", Problem.MEDIA_TYPE)
                .end(Json.encode(problem));
    }

    /**
     * The response, with the X-Request-Id every answer carries: a request refused here never
     * reaches RequestIds' filter.
     */
    private static io.vertx.core.http.HttpServerResponse named(RoutingContext rc) {
        if (rc.response().headers().get(RequestIds.HEADER) == null) {
            rc.response()
                    .putHeader(RequestIds.HEADER, RequestIds.of(rc.request().getHeader(RequestIds.HEADER)));
        }
        return rc.response();
    }

    /**
     * Whether Quarkus's CORS filter may admit {@code origin}: absent, the service's own host (any
     * scheme: behind a TLS-terminating Gateway the browser says https), or listed in CORS_ORIGINS
     * (exactly, or by a /regex/ entry, as Quarkus reads them). Quarkus still decides for those.
     */
    boolean originMayPass(String origin, String authority) {
        if (origin == null) {
            return true;
        }
        int scheme = origin.indexOf("://");
        if (scheme > 0 && origin.substring(scheme + 3).equalsIgnoreCase(authority)) {
            return true;
        }
        for (String allowed : corsOrigins.orElse(List.of())) {
            String entry = allowed.trim();
            if (entry.equals("*")
                    || entry.equals(origin)
                    || (entry.length() > 2
                            && entry.startsWith("/")
                            && entry.endsWith("/")
                            && Pattern.compile(entry.substring(1, entry.length() - 1))
                                    .matcher(origin)
                                    .matches())) {
                return true;
            }
        }
        return false;
    }

    /** Absent, or exactly one key of 1 to 200 visible ASCII characters (empty was taken as absent). */
    private static boolean validIdempotencyKey(List<String> values) {
        return values.isEmpty()
                || (values.size() == 1
                        && IDEMPOTENCY_KEY_VALUE.matcher(values.get(0)).matches());
    }

    private static boolean hasBody(HttpServerRequest request) {
        String length = request.getHeader("Content-Length");
        return (length != null && declaredLength(length) != 0) || request.getHeader("Transfer-Encoding") != null;
    }

    private static boolean isBlank(String value) {
        return value == null || value.isBlank();
    }

    /** What an Accept header says of this API's media types. */
    enum Acceptance {
        JSON,
        NO_JSON,
        MALFORMED
    }

    private static final String TOKEN = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
    private static final String QUOTED = "\"(?:[\\t \\x21\\x23-\\x5B\\x5D-\\x7E]|\\\\[\\t \\x21-\\x7E])*\"";
    /** RFC 9110 12.5.1: type "/" subtype, then parameters (empty ones allowed: "a/b;;"). */
    private static final Pattern MEDIA_RANGE = Pattern.compile(
            "(" + TOKEN + ")/(" + TOKEN + ")((?:[ \\t]*;[ \\t]*(?:" + TOKEN + "=(?:" + TOKEN + "|" + QUOTED + "))?)*)");

    private static final Pattern PARAMETER = Pattern.compile("(" + TOKEN + ")=(" + TOKEN + "|" + QUOTED + ")");
    private static final Pattern QVALUE = Pattern.compile("0(\\.[0-9]{0,3})?|1(\\.0{0,3})?");
    /** A comma outside quoted strings: where one element of the list ends. */
    private static final Pattern LIST_COMMA = Pattern.compile(",(?=(?:[^\"]*\"[^\"]*\")*[^\"]*$)");

    /**
     * Whether Accept admits application/json or application/problem+json (absent or blank admits
     * anything), admits neither, or is not a list of media ranges as RFC 9110 12.5.1 writes them (a
     * type without a subtype, a q that is no qvalue, a stray character, nothing but commas).
     */
    static Acceptance acceptance(String accept) {
        boolean json = false;
        boolean any = false;
        for (String element : accept == null ? new String[0] : LIST_COMMA.split(accept, -1)) {
            String range = element.strip();
            if (range.isEmpty()) {
                continue;
            }
            Matcher m = MEDIA_RANGE.matcher(range);
            if (!m.matches() || (m.group(1).equals("*") && !m.group(2).equals("*"))) {
                return Acceptance.MALFORMED;
            }
            any = true;
            boolean refused = false;
            Matcher p = PARAMETER.matcher(m.group(3));
            while (p.find()) {
                if (p.group(1).equalsIgnoreCase("q")) {
                    if (!QVALUE.matcher(p.group(2)).matches()) {
                        return Acceptance.MALFORMED;
                    }
                    refused = Double.parseDouble(p.group(2)) == 0;
                }
            }
            String type = (m.group(1) + "/" + m.group(2)).toLowerCase(Locale.ROOT);
            json |= !refused
                    && (type.equals("*/*")
                            || type.equals("application/*")
                            || type.equals("application/json")
                            || type.equals(Problem.MEDIA_TYPE));
        }
        if (!any) {
            // Absent or blank admits anything; a list of nothing but commas says nothing a server can use.
            return accept == null || accept.isBlank() ? Acceptance.JSON : Acceptance.MALFORMED;
        }
        return json ? Acceptance.JSON : Acceptance.NO_JSON;
    }

    /** True when every run of percent-escapes in {@code uri} decodes as well-formed UTF-8. */
    static boolean isUtf8(String uri) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '%') {
                if (i + 2 >= uri.length()) {
                    return false;
                }
                int hi = Character.digit(uri.charAt(i + 1), 16);
                int lo = Character.digit(uri.charAt(i + 2), 16);
                if (hi < 0 || lo < 0 || uri.charAt(i + 1) > 'f' || uri.charAt(i + 2) > 'f') {
                    return false;
                }
                bytes.write(hi << 4 | lo);
                i += 2;
            } else if (c > 0x7F) {
                // raw non-ASCII in a request line: Vert.x hands it over as Latin-1, never as intended
                return false;
            } else {
                bytes.write(c);
            }
        }
        return Utf8.isWellFormed(bytes.toByteArray());
    }

    private static long declaredLength(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
