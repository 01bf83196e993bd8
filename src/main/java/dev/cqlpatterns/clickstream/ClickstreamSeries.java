package dev.cqlpatterns.clickstream;

import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Period;

/** The months of the clickstream that hold clicks: one global series, as the seed's (year, month). */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
public class ClickstreamSeries {
    public static final String NAME = "clickstream";

    @Produces
    @Singleton
    @Named(NAME)
    TimeSeries clickstream(ClickstreamSettings settings) {
        // Months are kept as long as their clicks live, rounded up to whole months.
        return TimeSeries.global(
                NAME,
                Granularity.MONTH,
                settings.retention().map(r -> Period.ofMonths((int) Math.max(1, (r.toDays() + 30) / 31 + 1))));
    }
}
