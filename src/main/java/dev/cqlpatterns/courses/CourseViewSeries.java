package dev.cqlpatterns.courses;

import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Period;
import java.util.Optional;

/**
 * The day buckets of each course's page views (course_page_views). DAY, not MONTH:
 * the bucket is what bounds a popular course's partition, and a month of a busy course's views is
 * too big for one. Buckets are kept as long as the views' TTL, rounded up to whole days.
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
public class CourseViewSeries {
    public static final String NAME = "course-views";

    @Produces
    @Singleton
    @Named(NAME)
    TimeSeries courseViews(CourseSettings settings) {
        long days = Math.max(1, (settings.viewsRetention().toSeconds() + 86_399) / 86_400);
        return TimeSeries.perEntity(NAME, Granularity.DAY, Optional.of(Period.ofDays((int) days)));
    }
}
