package dev.cqlpatterns.courses;

import jakarta.validation.constraints.NotNull;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.courses.RecordCourseView.CourseView;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import dev.cqlpatterns.platform.time.TimeUuids;
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
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /courses/{courseId}/views: a course's page views, newest first, between two instants.
 *
 * <p>The bucket registry lists the course's days that have views (one partition read); the days
 * are then read one after the other, newest first, each with
 * {@code view_id >= minTimeuuid(from) AND view_id <= maxTimeuuid(to)} and a LIMIT of what the page
 * still needs, until the page is full. Views older than the retention have expired, so the walk
 * never starts further back than that. The cursor is the day and the last view id returned: the
 * next page continues in that day with {@code view_id < last}.
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@Path("/courses/{courseId}/views")
@Tag(name = "courses")
public class CourseViews {
    private static final Query IN_DAY = Cql.idempotent("SELECT view_id FROM course_page_views"
            + " WHERE course_id = ? AND day = ? AND view_id >= ? AND view_id <= ? LIMIT ?");
    private static final Query IN_DAY_AFTER = Cql.idempotent("SELECT view_id FROM course_page_views"
            + " WHERE course_id = ? AND day = ? AND view_id >= ? AND view_id < ? LIMIT ?");

    @Inject
    Cql cql;

    @Inject
    Clock clock;

    @Inject
    Cursors cursors;

    @Inject
    BucketRegistry registry;

    @Inject
    KnownCourses known;

    @Inject
    CourseSettings settings;

    @Inject
    @Named(CourseViewSeries.NAME)
    TimeSeries series;

    /** Where the previous page stopped: the day bucket and the last view id returned. */
    @RegisterForReflection
    public record Position(int day, @NotNull UUID last) {
    }

    private record Found(int day, UUID id) {
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "A course's page views, newest first, between two instants",
            description = "Views are kept for cql-patterns.courses.views-retention (default 90 days); older ones have expired. "
                    + "X-Partitions-Read: the days registry, one per day visited, and the course row when this replica "
                    + "has not seen the course yet (a 404 for unknown courses needs it).")
    public Uni<Page<CourseView>> list(
            @Parameter(description = "Course id", example = "node-intro",
                    schema = @Schema(type = SchemaType.STRING, pattern = CourseIds.COURSE_ID_PATTERN, maxLength = 100)) @PathParam("courseId") String courseId,
            @Parameter(description = "Oldest instant included (minTimeuuid); default: the start of the retention",
                    example = "2015-06-01T00:00:00Z", schema = @Schema(type = SchemaType.STRING, format = "date-time")) @QueryParam("from") String from,
            @Parameter(description = "Newest instant included (maxTimeuuid); default: now",
                    example = "2015-06-30T23:59:59Z", schema = @Schema(type = SchemaType.STRING, format = "date-time")) @QueryParam("to") String to,
            @Parameter(description = "Page size, 1 to the maximum (default 50, max 500)", example = "50") @QueryParam("limit") Integer limit,
            @Parameter(description = "The 'next' value of the previous page") @QueryParam("cursor") String cursor) {
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
        Position after = cursors.decode(scope, cursor, Position.class).orElse(null);
        // Nothing older than the retention is left; do not visit the expired days.
        Instant lowerAt = fromAt.isBefore(oldestKept) ? oldestKept : fromAt;
        int newestDay = after != null ? after.day() : Granularity.DAY.key(toAt);
        int oldestDay = Granularity.DAY.key(lowerAt);
        UUID lower = TimeUuids.startOf(lowerAt);
        UUID upper = TimeUuids.endOf(toAt);
        return known.require(id).chain(() -> {
            if (lowerAt.isAfter(toAt) || newestDay < oldestDay) {
                return Uni.createFrom().item(Page.<CourseView>of(List.of(), null));
            }
            int days = (int) Math.min(ChronoUnit.DAYS.between(Granularity.DAY.start(oldestDay), Granularity.DAY.start(newestDay)) + 1,
                    series.retention().map(r -> r.getDays() + 2).orElse(10_000));
            return registry.newestFirst(series, id, newestDay, oldestDay, days)
                    .chain(buckets -> collect(id, buckets, 0, after, lower, upper, size + 1, new ArrayList<>()))
                    .map(found -> page(scope, found, size));
        });
    }

    /** Reads the days in order until {@code wanted} views are found or the days run out. */
    private Uni<List<Found>> collect(String courseId, List<Integer> days, int index, Position after, UUID lower,
            UUID upper, int wanted, List<Found> found) {
        if (index >= days.size() || found.size() >= wanted) {
            return Uni.createFrom().item(found);
        }
        int day = days.get(index);
        int need = wanted - found.size();
        Uni<AsyncResultSet> read = after != null && after.day() == day
                ? cql.read(IN_DAY_AFTER, 1, courseId, day, lower, after.last(), need)
                : cql.read(IN_DAY, 1, courseId, day, lower, upper, need);
        return read.chain(rs -> {
            for (Row row : Cql.rows(rs)) {
                found.add(new Found(day, row.getUuid(0)));
            }
            return collect(courseId, days, index + 1, after, lower, upper, wanted, found);
        });
    }

    private Page<CourseView> page(String scope, List<Found> found, int size) {
        List<Found> items = found.size() > size ? found.subList(0, size) : found;
        String next = null;
        if (found.size() > size) {
            Found last = items.get(items.size() - 1);
            next = cursors.encode(scope, new Position(last.day(), last.id()));
        }
        return Page.of(items.stream().map(f -> CourseView.of(f.id())).toList(), next);
    }

    private static String nullToEmpty(String s) {
        return s == null ? "" : s;
    }
}
