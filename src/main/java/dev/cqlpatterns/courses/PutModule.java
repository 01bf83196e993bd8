package dev.cqlpatterns.courses;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Caller;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.hibernate.validator.constraints.CodePointLength;

/**
 * PUT /courses/{courseId}/modules/{moduleId}: creates or renames a module. It writes the module's
 * row only, so the course name "remains the same" (seed 002, cql/SEEDS.md).
 *
 * <p>The course must exist and belong to the caller: its static name and owner are read first (404
 * when there is no course, 403 when someone else owns it; see KnownCourses). A read then a write is
 * enough here, without a lightweight transaction: no route deletes a course and an owner never
 * changes, so the only race is a module written while its course is being created, which at worst
 * answers 404 to a client that then retries. A course with modules but no name cannot arise.
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@Path("/courses/{courseId}/modules/{moduleId}")
@Tag(name = "courses")
public class PutModule {

    @Inject
    Caller caller;

    @Inject
    KnownCourses known;

    @Inject
    CourseSettings settings;

    @Schema(name = "ModuleName")
    public record ModuleName(
            @Schema(
                    description = "The module's title",
                    examples = "Getting Started with Node.js",
                    pattern = Text.SINGLE_LINE_NOT_BLANK,
                    maxLength = 200)
            @NotBlank
            @CodePointLength(max = 200)
            @Pattern(regexp = Text.SINGLE_LINE, message = Text.SINGLE_LINE_MESSAGE)
            String name) {}

    @Schema(name = "Module")
    public record Module(
            @Schema(description = "Module id, the course's modules are listed in this order", examples = "1")
            int id,

            @Schema(pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = 200, examples = "Getting Started with Node.js")
            String name) {}

    @PUT
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Create or rename a module of a course (the course's owner only)",
            description =
                    "Writes only the module's row: the course name stays as it was. The course must exist. Idempotent. "
                            + "Only the course's owner changes its modules; anyone else gets 403 and nothing changes.")
    @APIResponse(responseCode = "200", description = "The module as written")
    @APIResponse(responseCode = "403", description = "The course belongs to another user")
    public Uni<Module> put(
            @Parameter(ref = CourseParameters.COURSE_ID) @PathParam("courseId") String courseId,
            @Parameter(
                            description =
                                    "Module id, a positive integer up to cql-patterns.courses.max-module-id (default 1000)",
                            example = "1",
                            schema =
                                    @Schema(
                                            type = SchemaType.INTEGER,
                                            format = "int32",
                                            minimum = "1",
                                            maximum = "1000"))
                    @PathParam("moduleId")
                    String moduleId,
            @Valid @NotNull ModuleName body) {
        String me = caller.username();
        String id = CourseIds.courseId(courseId);
        int module = CourseIds.moduleId(moduleId, settings.maxModuleId());
        return known.requireOwner(id, me)
                .chain(() -> known.changeTime(id))
                .chain(t -> known.writeModule(id, module, body.name(), t))
                .map(written -> new Module(module, body.name()));
    }
}
