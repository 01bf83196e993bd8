package dev.cqlpatterns.courses;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
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
 * PUT /courses/{courseId}: creates a course, owned by the caller, or renames it when the caller owns it (403
 * for anyone else; see KnownCourses). The name is the partition's static column, so this one write renames
 * the course for every module, and no module row is touched. A new course's name and owner are one
 * conditional write; a rename by the owner is a plain write (owners never change, so the check before it
 * cannot go stale).
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@Path("/courses/{courseId}")
@Tag(name = "courses")
public class PutCourse {

    @Inject
    Caller caller;

    @Inject
    KnownCourses known;

    @Schema(name = "CourseName")
    public record CourseName(
            @Schema(
                    description = "The course's title",
                    examples = "Introduction to Node.js",
                    pattern = Text.SINGLE_LINE_NOT_BLANK,
                    maxLength = 200)
            @NotBlank
            @CodePointLength(max = 200)
            @Pattern(regexp = Text.SINGLE_LINE, message = Text.SINGLE_LINE_MESSAGE)
            String name) {}

    @Schema(name = "CourseSummary")
    public record CourseSummary(
            @Schema(
                    pattern = CourseIds.COURSE_ID_PATTERN,
                    maxLength = CourseIds.COURSE_ID_MAX,
                    examples = CourseIds.COURSE_ID_EXAMPLE)
            String id,

            @Schema(pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = 200, examples = "Introduction to Node.js")
            String name,

            @Schema(
                    pattern = Usernames.ANSWERED,
                    description = "Username of the course's owner, the only caller who may change it",
                    examples = "alice")
            String owner) {}

    @PUT
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Create a course (the caller owns it) or rename it (its owner only)",
            description =
                    "Writes only the course's static name: its modules stay as they are. Idempotent. The caller who "
                            + "creates a course owns it; only the owner renames it, anyone else gets 403 and nothing changes. A "
                            + "course from before owners were recorded is claimed by its first change.")
    @APIResponse(responseCode = "200", description = "The course as created or renamed")
    @APIResponse(responseCode = "403", description = "The course belongs to another user")
    public Uni<CourseSummary> put(
            @Parameter(
                            description = "Course id: 1 to 100 letters, digits, '.', '_' or '-'",
                            example = CourseIds.COURSE_ID_EXAMPLE,
                            schema =
                                    @Schema(
                                            type = SchemaType.STRING,
                                            pattern = CourseIds.COURSE_ID_PATTERN,
                                            maxLength = CourseIds.COURSE_ID_MAX))
                    @PathParam("courseId")
                    String courseId,
            @Valid @NotNull CourseName body) {
        String me = caller.username();
        String id = CourseIds.courseId(courseId);
        return known.createOrRequireOwner(id, me, body.name())
                .chain(created -> created
                        ? Uni.createFrom().voidItem()
                        : known.changeTime(id).chain(t -> known.writeName(id, body.name(), t)))
                .map(written -> new CourseSummary(id, body.name(), me));
    }
}
