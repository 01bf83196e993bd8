package dev.cqlpatterns.courses;

import dev.cqlpatterns.platform.openapi.SharedParameters;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.media.Schema;

/** The course id that the course routes share, described once in the contract. */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class CourseParameters extends SharedParameters implements OASFilter {
    static final String COURSE_ID = "CourseId";

    public CourseParameters() {
        share(COURSE_ID, inPath("courseId", "Course id", CourseIds.COURSE_ID_EXAMPLE, courseId()));
    }

    private static Schema courseId() {
        return string(CourseIds.COURSE_ID_PATTERN).maxLength(CourseIds.COURSE_ID_MAX);
    }
}
