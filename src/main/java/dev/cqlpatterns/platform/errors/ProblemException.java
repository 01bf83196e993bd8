package dev.cqlpatterns.platform.errors;

import java.util.List;

/** Thrown by a function to answer with a problem; the message is safe to show to the caller. */
public class ProblemException extends RuntimeException {
    private final int status;
    private final String type;
    private final String title;
    private final List<Problem.FieldError> errors;

    public ProblemException(int status, String type, String title, String detail, List<Problem.FieldError> errors) {
        super(detail, null, false, false);
        this.status = status;
        this.type = type;
        this.title = title;
        this.errors = errors;
    }

    public static ProblemException badRequest(String detail) {
        return new ProblemException(400, "validation", "Invalid request", detail, null);
    }

    /** A 400 that names the field or parameter at fault. */
    public static ProblemException invalid(String field, String message) {
        return new ProblemException(
                400,
                "validation",
                "Invalid request",
                field + ": " + message,
                List.of(new Problem.FieldError(field, message)));
    }

    public static ProblemException badCursor(String detail) {
        return new ProblemException(400, "bad-cursor", "Invalid cursor", detail, null);
    }

    public static ProblemException notFound(String detail) {
        return new ProblemException(404, "not-found", "Not found", detail, null);
    }

    public static ProblemException forbidden(String detail) {
        return new ProblemException(403, "forbidden", "Forbidden", detail, null);
    }

    public static ProblemException conflict(String detail) {
        return new ProblemException(409, "conflict", "Conflict", detail, null);
    }

    /** A 503 with Retry-After, as when the database is unreachable: the same request may be sent again. */
    public static ProblemException unavailable(String detail) {
        return new ProblemException(503, "cassandra-unavailable", "Service unavailable", detail, null);
    }

    public Problem toProblem() {
        return new Problem(Problems.type(type), title, status, getMessage(), errors);
    }

    public int status() {
        return status;
    }
}
