package dev.cqlpatterns.courses;

import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.cassandra.Ttl;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * POST /courses/{courseId}/views: records one page view of a course, identified by a timeuuid.
 *
 * <p>The timeuuid is made from the service's clock (not CQL's now()), so the id can be answered
 * without reading it back and tests can move time. The view goes into the course's partition for
 * its UTC day, listed in the bucket registry first so readers find the day, and expires after
 * cql-patterns.courses.views-retention (its TTL). Views of unknown courses are refused (404).
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@Path("/courses/{courseId}/views")
@Tag(name = "courses")
public class RecordCourseView {

    @Inject
    PageViewRows views;

    @Inject
    Clock clock;

    @Inject
    BucketRegistry registry;

    @Inject
    KnownCourses known;

    @Inject
    CourseSettings settings;

    @Inject
    @Named(CourseViewSeries.NAME)
    TimeSeries series;

    private int ttlSeconds;

    @PostConstruct
    void init() {
        ttlSeconds = Ttl.of(settings.viewsRetention(), Duration.ofDays(1), "cql-patterns.courses.views-retention");
    }

    @Schema(name = "CourseView")
    public record CourseView(
            @Schema(
                    format = "uuid",
                    description = "The view's timeuuid",
                    examples = "ece41c60-13bc-11e5-b559-4b636433f200")
            String id,

            @Schema(
                    description = "When the view happened: the timestamp of its timeuuid",
                    examples = "2015-06-15T17:08:03.782Z")
            Instant viewedAt) {

        static CourseView of(UUID id) {
            return new CourseView(id.toString(), TimeUuids.instant(id));
        }
    }

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Record a page view of a course",
            description = "Stamped with a timeuuid of the service's clock.")
    @APIResponse(
            responseCode = "201",
            description = "The view, with its id and time",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = CourseView.class)))
    public Uni<RestResponse<CourseView>> record(
            @Parameter(ref = CourseParameters.COURSE_ID) @PathParam("courseId") String courseId) {
        String id = CourseIds.courseId(courseId);
        Instant at = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        UUID viewId = TimeUuids.at(at);
        return known.require(id)
                .chain(() -> registry.record(series, id, at))
                .chain(day -> views.writeView(id, day, viewId, ttlSeconds))
                .map(written -> RestResponse.status(RestResponse.Status.CREATED, CourseView.of(viewId)));
    }
}
