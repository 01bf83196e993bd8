package dev.cqlpatterns.courses;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * DELETE /courses/{courseId}/modules/{moduleId}: the course's owner removes one module row (a row
 * tombstone); the course name, a static column, stays. Deleting a module that is not there is not
 * an error, so a retried delete answers the same: 204 either way. The course's owner is checked
 * first (see KnownCourses: a read, unless this process has seen the owner): 404 when there is no
 * such course, 403 when someone else owns it.
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@Path("/courses/{courseId}/modules/{moduleId}")
@Tag(name = "courses")
public class DeleteModule {

    @Inject
    Caller caller;

    @Inject
    CourseSettings settings;

    @Inject
    KnownCourses known;

    @DELETE
    @Authenticated
    @Operation(
            summary = "Delete a module of a course (the course's owner only)",
            description =
                    "Idempotent: 204 whether or not the module existed. Only the course's owner deletes its modules; "
                            + "anyone else gets 403 and nothing changes.")
    @APIResponse(responseCode = "204", description = "The module is gone")
    @APIResponse(responseCode = "403", description = "The course belongs to another user")
    public Uni<RestResponse<Void>> delete(
            @Parameter(ref = CourseParameters.COURSE_ID) @PathParam("courseId") String courseId,
            @Parameter(
                            description =
                                    "Module id, a positive integer up to cql-patterns.courses.max-module-id (default 1000)",
                            example = "2",
                            schema =
                                    @Schema(
                                            type = SchemaType.INTEGER,
                                            format = "int32",
                                            minimum = "1",
                                            maximum = "1000"))
                    @PathParam("moduleId")
                    String moduleId) {
        String me = caller.username();
        String id = CourseIds.courseId(courseId);
        int module = CourseIds.moduleId(moduleId, settings.maxModuleId());
        return known.requireOwner(id, me)
                .chain(() -> known.changeTime(id))
                .chain(t -> known.deleteModule(id, module, t))
                .map(deleted -> RestResponse.noContent());
    }
}
