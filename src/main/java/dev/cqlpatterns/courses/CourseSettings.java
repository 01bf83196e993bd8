package dev.cqlpatterns.courses;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Min;
import java.time.Duration;

@ConfigMapping(prefix = "cql-patterns.courses")
public interface CourseSettings {

    /** The largest module id; it bounds a course's partition (see the courses table in docs/tables.md). */
    @WithDefault("1000")
    @Min(1)
    int maxModuleId();

    /** How long a page view is kept (its TTL) and how far back a view list looks; at least a day. */
    @WithDefault("P90D")
    Duration viewsRetention();
}
