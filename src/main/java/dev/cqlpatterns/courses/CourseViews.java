package dev.cqlpatterns.courses;

import dev.cqlpatterns.courses.RecordCourseView.CourseView;
import dev.cqlpatterns.platform.buckets.BucketWalk;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /courses/{courseId}/views: a course's page views, newest first, between two instants.
 *
 * <p>The bucket registry lists the course's days that have views (one partition read); the days
 * are then read one after the other, newest first (platform.buckets.BucketWalk), each with
 * {@code view_id >= minTimeuuid(from) AND view_id <= maxTimeuuid(to)} and a LIMIT of what the page
 * still needs, until the page is full, the days run out or cql-patterns.paging.max-buckets days
 * were read. Views older than the retention have expired, so the walk never starts further back
 * than that. The cursor is the day and the last view id returned: the next page continues in that
 * day with {@code view_id < last}; or (last null) the day where a page cut short resumes.
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@Path("/courses/{courseId}/views")
@Tag(name = "courses")
public class CourseViews {

    @Inject
    PageViewRows views;

    @Inject
    Clock clock;

    @Inject
    Cursors cursors;

    @Inject
    BucketWalk walk;

    @Inject
    KnownCourses known;

    @Inject
    CourseSettings settings;

    @Inject
    @Named(CourseViewSeries.NAME)
    TimeSeries series;

    /** Where the previous page stopped: the day bucket and the last view id returned (null: the day's top). */
    @RegisterForReflection
    public record Position(int day, UUID last) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "A course's page views, newest first, between two instants",
            description =
                    "Views are kept for cql-patterns.courses.views-retention (default 90 days); older ones have expired. "
                            + "X-Partitions-Read: the days registry, one per day visited, and the course row when this replica "
                            + "has not seen the course yet (a 404 for unknown courses needs it).")
    public Uni<Page<CourseView>> list(
            @Parameter(ref = CourseParameters.COURSE_ID) @PathParam("courseId") String courseId,
            @Parameter(
                            description = "Oldest instant included (minTimeuuid); default: the start of the retention",
                            example = "2015-06-01T00:00:00Z",
                            schema = @Schema(type = SchemaType.STRING, format = "date-time"))
                    @QueryParam("from")
                    String from,
            @Parameter(
                            description = "Newest instant included (maxTimeuuid); default: now",
                            example = "2015-06-30T23:59:59Z",
                            schema = @Schema(type = SchemaType.STRING, format = "date-time"))
                    @QueryParam("to")
                    String to,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor) {
        String id = CourseIds.courseId(courseId);
        int size = cursors.limit(limit);
        Instant now = clock.instant();
        Instant oldestKept = now.minus(settings.viewsRetention());
        Instant fromAt = TimeUuids.sliceBound("from", from, oldestKept);
        Instant toAt = TimeUuids.sliceBound("to", to, now);
        if (fromAt.isAfter(toAt)) {
            throw ProblemException.invalid("from", "must not be after 'to' (default: now)");
        }
        String scope = "course-views:" + id + ":" + nullToEmpty(from) + ":" + nullToEmpty(to);
        BucketWalk.Mark<UUID> after = cursors.decode(scope, cursor, Position.class)
                .map(p -> new BucketWalk.Mark<>(p.day(), p.last()))
                .orElse(null);
        // Nothing older than the retention is left; do not visit the expired days.
        Instant lowerAt = fromAt.isBefore(oldestKept) ? oldestKept : fromAt;
        int newestDay = after != null ? after.bucket() : Granularity.DAY.key(toAt);
        int oldestDay = Granularity.DAY.key(lowerAt);
        UUID lower = TimeUuids.startOf(lowerAt);
        UUID upper = TimeUuids.endOf(toAt);
        return known.require(id).chain(() -> {
            if (lowerAt.isAfter(toAt) || newestDay < oldestDay) {
                return Uni.createFrom().item(Page.<CourseView>of(List.of(), null));
            }
            return walk.page(
                            series,
                            id,
                            newestDay,
                            oldestDay,
                            after,
                            size,
                            walk.budget(),
                            Function.<UUID>identity(),
                            (day, last, need) -> views.inDay(id, day, lower, upper, last, need)
                                    .map(found -> BucketWalk.Chunk.of(found, need, Function.<UUID>identity())))
                    .map(page -> page.toPage(
                            CourseView::of, next -> cursors.encode(scope, new Position(next.bucket(), next.after()))));
        });
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
