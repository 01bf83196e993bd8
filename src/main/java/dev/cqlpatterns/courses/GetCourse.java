package dev.cqlpatterns.courses;

import dev.cqlpatterns.courses.PutModule.Module;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Usernames;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /courses/{courseId}: the course page, read from its one partition. Every row carries the
 * static name; the module rows come in module_id order. A course without modules is a partition
 * with only its static row, which reads as one row whose module_id is null.
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@Path("/courses/{courseId}")
@Tag(name = "courses")
public class GetCourse {

    @Inject
    KnownCourses known;

    @Schema(name = "Course")
    public record Course(
            @Schema(
                    pattern = CourseIds.COURSE_ID_PATTERN,
                    maxLength = CourseIds.COURSE_ID_MAX,
                    examples = CourseIds.COURSE_ID_EXAMPLE)
            String id,

            @Schema(pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = 200, examples = "Introduction to Node.js")
            String name,

            @Schema(
                    pattern = Usernames.ANSWERED,
                    description =
                            "Username of the course's owner, the only caller who may change it; null for a course "
                                    + "from before owners were recorded, until its next change claims it",
                    nullable = true,
                    examples = "alice")
            String owner,

            @Schema(description = "The course's modules in module id order")
            List<Module> modules) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "A course with its modules, in module id order (one partition read)")
    public Uni<Course> get(@Parameter(ref = CourseParameters.COURSE_ID) @PathParam("courseId") String courseId) {
        String id = CourseIds.courseId(courseId);
        return known.course(id).map(course -> {
            if (course == null) {
                throw ProblemException.notFound("No course " + id);
            }
            return course;
        });
    }
}
