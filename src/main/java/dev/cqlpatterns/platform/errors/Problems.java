package dev.cqlpatterns.platform.errors;

import com.fasterxml.jackson.core.JsonParseException;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import dev.cqlpatterns.platform.observability.Traces;
import jakarta.validation.ConstraintViolation;
import jakarta.validation.ConstraintViolationException;
import jakarta.ws.rs.NotAllowedException;
import jakarta.ws.rs.WebApplicationException;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.eclipse.microprofile.config.ConfigProvider;
import org.jboss.logging.Logger;

/**
 * Turns every failure into a problem+json response; the single place where statuses are decided.
 * Nothing here echoes exception messages of libraries (they can carry class names or CQL) except
 * for the JSON location, which names only the caller's own field.
 */
public final class Problems {
    private static final Logger LOG = Logger.getLogger(Problems.class);
    private static final String TYPE_PREFIX = "urn:cql-patterns:problem:";
    private static final Pattern DUPLICATE_FIELD = Pattern.compile("Duplicate field '(.{1,200})'");

    private Problems() {}

    public static String type(String slug) {
        return TYPE_PREFIX + slug;
    }

    public static Response response(Throwable failure) {
        Throwable t = unwrap(failure);
        if (t instanceof ProblemException p) {
            Response answer = build(p.toProblem());
            return p.status() == 503
                    ? Response.fromResponse(answer)
                            .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds())
                            .build()
                    : answer;
        }
        if (t instanceof ConstraintViolationException cve) {
            return validation(cve);
        }
        if (t instanceof UnrecognizedPropertyException upe) {
            return field(jsonPath(upe), "is not a known field");
        }
        if (t instanceof InvalidFormatException ife) {
            return field(jsonPath(ife), "has the wrong type or format");
        }
        if (t instanceof MismatchedInputException mie
                && String.valueOf(mie.getOriginalMessage()).startsWith("Trailing token")) {
            return problem(
                    400, "malformed-json", "Malformed JSON", "The request body must be exactly one JSON document");
        }
        if (t instanceof MismatchedInputException mie) {
            String path = jsonPath(mie);
            return path.isEmpty()
                    ? problem(
                            400,
                            "malformed-json",
                            "Malformed JSON",
                            "The request body is not the JSON this route expects")
                    : field(path, "has the wrong type");
        }
        if (t instanceof JsonParseException jpe) {
            Matcher duplicate = DUPLICATE_FIELD.matcher(String.valueOf(jpe.getOriginalMessage()));
            if (duplicate.matches()) {
                return field(duplicate.group(1), "appears more than once");
            }
            return problem(
                    400,
                    "malformed-json",
                    "Malformed JSON",
                    "The request body is not valid JSON (line "
                            + jpe.getLocation().getLineNr() + ", column "
                            + jpe.getLocation().getColumnNr() + ")");
        }
        if (t instanceof JsonProcessingException) {
            return problem(400, "malformed-json", "Malformed JSON", "The request body is not valid JSON");
        }
        if (t instanceof io.quarkus.security.UnauthorizedException
                || t instanceof io.quarkus.security.AuthenticationFailedException) {
            return Response.fromResponse(problem(
                            401,
                            "unauthorized",
                            "Unauthorized",
                            "This route needs a valid bearer token (Authorization: Bearer <JWT>)"))
                    .header(HttpHeaders.WWW_AUTHENTICATE, "Bearer")
                    .build();
        }
        if (t instanceof io.quarkus.security.ForbiddenException) {
            return problem(403, "forbidden", "Forbidden", "The caller may not do this");
        }
        if (t instanceof WebApplicationException wae) {
            int status = wae.getResponse().getStatus();
            Throwable cause = wae.getCause();
            if (status == 400 && cause instanceof JsonProcessingException) {
                // Quarkus REST wraps the body reader's Jackson failure.
                return response(cause);
            }
            if ((status == 404 || status == 400) && cause != null && !(cause instanceof WebApplicationException)) {
                // JAX-RS answers 404 when a query or path parameter does not convert; it is bad input.
                return problem(
                        400,
                        "validation",
                        "Invalid request",
                        "A path, query or header parameter has the wrong format; see the API description for its type");
            }
            return fromStatus(wae);
        }
        if (CassandraFailures.refusedRead(t).isPresent()) {
            // Logged at ERROR with its statement and counted where it ran (platform.cassandra.RefusedReads).
            return problem(
                    500,
                    "read-refused",
                    "Read refused by the database",
                    "The database refused this read because of the dead rows or data it would have to scan. "
                            + "This is a defect of the service, not an outage: it has been logged, and retrying will not help");
        }
        if (CassandraFailures.isUnavailable(t)) {
            LOG.debugf(t, "Cassandra unavailable");
            LOG.warnf("Cassandra unavailable: %s", t.getMessage());
            return Response.fromResponse(problem(
                            503,
                            "cassandra-unavailable",
                            "Service unavailable",
                            "The database is unreachable or too slow right now; retry later"))
                    .header(HttpHeaders.RETRY_AFTER, retryAfterSeconds())
                    .build();
        }
        LOG.error("Unexpected failure", t);
        return problem(500, "internal-error", "Internal error", "Something unexpected went wrong; it has been logged");
    }

    public static Response problem(int status, String slug, String title, String detail) {
        return build(plain(status, slug, title, detail));
    }

    /** The problem itself, for answers written outside the REST layer (platform.http.RequestGate). */
    public static Problem of(int status, String slug, String title, String detail) {
        return traced(plain(status, slug, title, detail));
    }

    /** A 400 that names the field and says what is wrong with it. */
    public static Problem ofField(String field, String message) {
        return traced(plainField(field, message));
    }

    private static Response field(String field, String message) {
        return build(plainField(field, message));
    }

    /** Without the trace id: {@link #build} and {@link #traced} add it once. */
    private static Problem plain(int status, String slug, String title, String detail) {
        return new Problem(type(slug), title, status, detail, null);
    }

    private static Problem plainField(String field, String message) {
        return new Problem(
                type("validation"),
                "Invalid request",
                400,
                field + ": " + message,
                List.of(new Problem.FieldError(field, message)));
    }

    private static Problem traced(Problem problem) {
        return problem.traceId() == null ? problem.withTraceId(Traces.currentTraceId()) : problem;
    }

    private static Response build(Problem problem) {
        return Response.status(problem.status())
                .type(Problem.MEDIA_TYPE)
                .entity(traced(problem))
                .build();
    }

    private static Response validation(ConstraintViolationException cve) {
        List<Problem.FieldError> errors = cve.getConstraintViolations().stream()
                .map(v -> new Problem.FieldError(fieldName(v), v.getMessage()))
                .sorted(Comparator.comparing(Problem.FieldError::field))
                .toList();
        String detail = errors.stream().map(e -> e.field() + ": " + e.message()).collect(Collectors.joining("; "));
        return build(new Problem(type("validation"), "Invalid request", 400, detail, errors));
    }

    /** "send.request.content" becomes "content", "inbox.limit" becomes "limit". */
    private static String fieldName(ConstraintViolation<?> v) {
        String[] nodes = v.getPropertyPath().toString().split("\\.");
        if (nodes.length <= 1) {
            return nodes[0];
        }
        int from = nodes.length > 2 ? 2 : 1;
        return String.join(".", java.util.Arrays.copyOfRange(nodes, from, nodes.length));
    }

    private static String jsonPath(MismatchedInputException e) {
        return e.getPath().stream()
                .map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                .collect(Collectors.joining("."))
                .replace(".[", "[");
    }

    private static Response fromStatus(WebApplicationException wae) {
        int status = wae.getResponse().getStatus();
        Response base = switch (status) {
            case 404 -> problem(404, "not-found", "Not found", "No such resource");
            case 405 ->
                problem(405, "method-not-allowed", "Method not allowed", "This route does not take that method");
            case 406 -> problem(406, "not-acceptable", "Not acceptable", "This route answers application/json only");
            case 413 ->
                problem(413, "payload-too-large", "Payload too large", "The request body is over the size limit");
            case 415 ->
                problem(415, "unsupported-media-type", "Unsupported media type", "Send the body as application/json");
            case 401 -> problem(401, "unauthorized", "Unauthorized", "This route needs a valid bearer token");
            case 403 -> problem(403, "forbidden", "Forbidden", "The caller may not do this");
            default ->
                status >= 500
                        ? problem(status, "internal-error", "Internal error", "Something unexpected went wrong")
                        : problem(status, "bad-request", "Bad request", "The request cannot be served as sent");
        };
        if (status >= 500) {
            LOG.error("Server error", wae);
        }
        if (wae instanceof NotAllowedException && wae.getResponse().getHeaderString(HttpHeaders.ALLOW) != null) {
            return Response.fromResponse(base)
                    .header(HttpHeaders.ALLOW, wae.getResponse().getHeaderString(HttpHeaders.ALLOW))
                    .build();
        }
        return base;
    }

    private static Throwable unwrap(Throwable t) {
        Throwable current = t;
        while ((current instanceof CompletionException || current instanceof ExecutionException)
                && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    private static String retryAfterSeconds() {
        return ConfigProvider.getConfig()
                .getOptionalValue("cql-patterns.http.retry-after", String.class)
                .orElse("5");
    }
}
