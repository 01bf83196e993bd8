package dev.cqlpatterns.platform.errors;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;

/**
 * An RFC 9457 problem detail: every error this service answers has this shape. Its OpenAPI
 * schema is written by {@code ContractFilter}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(
        String type,
        String title,
        int status,
        String detail,
        List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public record FieldError(
            String field,
            String message) {
    }
}
