package dev.cqlpatterns.courses;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;

/** The course_page_views table: every statement on it. */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class PageViewRows {

    /** CourseViews: one day's views of a course within a time range. */
    private static final Query IN_DAY = Cql.idempotent("SELECT view_id FROM course_page_views"
            + " WHERE course_id = ? AND day = ? AND view_id >= ? AND view_id <= ? LIMIT ?");
    /** CourseViews: the next page of that day, after a cursor. */
    private static final Query IN_DAY_AFTER = Cql.idempotent("SELECT view_id FROM course_page_views"
            + " WHERE course_id = ? AND day = ? AND view_id >= ? AND view_id < ? LIMIT ?");
    /** RecordCourseView: one view, living as long as the retention. */
    private static final Query WRITE_VIEW =
            Cql.idempotent("INSERT INTO course_page_views (course_id, day, view_id) VALUES (?, ?, ?) USING TTL ?");

    @Inject
    Cql cql;

    /**
     * The ids of at most {@code need} views of a course on one day, newest first, from {@code lower} up
     * to {@code upper}, or below {@code last} when given (a cursor's position).
     */
    Uni<List<UUID>> inDay(String courseId, int day, UUID lower, UUID upper, UUID last, int need) {
        return (last == null
                        ? cql.read(IN_DAY, courseId, day, lower, upper, need)
                        : cql.read(IN_DAY_AFTER, courseId, day, lower, last, need))
                .map(rs -> Cql.rows(rs).stream().map(row -> row.getUuid(0)).toList());
    }

    /** One view in its day's partition, living {@code ttlSeconds} (0: for ever). */
    Uni<Void> writeView(String courseId, int day, UUID viewId, int ttlSeconds) {
        return cql.write(WRITE_VIEW, courseId, day, viewId, ttlSeconds).replaceWithVoid();
    }
}
