package dev.cqlpatterns.platform.errors;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** An RFC 9457 problem detail: every error this service answers has this shape. */
@JsonInclude(JsonInclude.Include.NON_NULL)
@Schema(name = "Problem", description = "RFC 9457 problem detail, sent as application/problem+json")
public record Problem(
        @Schema(description = "Stable identifier of the kind of problem", examples = "urn:cql-patterns:problem:validation") String type,
        @Schema(description = "Short summary of the kind of problem", examples = "Invalid request") String title,
        @Schema(description = "HTTP status", examples = "400") int status,
        @Schema(description = "What is wrong with this request", examples = "limit must be at most 500") String detail,
        @Schema(description = "Fields that failed validation, when the problem is about fields") List<FieldError> errors) {

    public static final String MEDIA_TYPE = "application/problem+json";

    @Schema(name = "FieldError")
    public record FieldError(
            @Schema(description = "Field or parameter name", examples = "content") String field,
            @Schema(description = "What is wrong with it", examples = "must not be blank") String message) {
    }
}
