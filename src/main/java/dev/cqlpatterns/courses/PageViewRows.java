package dev.cqlpatterns.courses;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;

/** The course_page_views table (cql/021_course_page_views.cql): every statement on it. */
final class PageViewRows {
    private PageViewRows() {}

    /** CourseViews: one day's views of a course within a time range. */
    static final Query IN_DAY = Cql.idempotent("SELECT view_id FROM course_page_views"
            + " WHERE course_id = ? AND day = ? AND view_id >= ? AND view_id <= ? LIMIT ?");
    /** CourseViews: the next page of that day, after a cursor. */
    static final Query IN_DAY_AFTER = Cql.idempotent("SELECT view_id FROM course_page_views"
            + " WHERE course_id = ? AND day = ? AND view_id >= ? AND view_id < ? LIMIT ?");
    /** RecordCourseView: one view, living as long as the retention. */
    static final Query WRITE_VIEW =
            Cql.idempotent("INSERT INTO course_page_views (course_id, day, view_id) VALUES (?, ?, ?) USING TTL ?");
}
