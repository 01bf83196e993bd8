package dev.cqlpatterns.platform.buckets;

import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Period;
import java.util.Optional;

/** Test-only series beans: what another feature would declare, global and per entity. */
public class TestSeries {
    static final String GLOBAL_NAME = "test-global-months";
    static final String PER_ENTITY_NAME = "test-per-entity-days";

    @Produces
    @Singleton
    TimeSeries testGlobalMonths() {
        return TimeSeries.global(GLOBAL_NAME, Granularity.MONTH, Optional.of(Period.ofMonths(24)));
    }

    @Produces
    @Singleton
    TimeSeries testPerEntityDays() {
        return TimeSeries.perEntity(PER_ENTITY_NAME, Granularity.DAY, Optional.of(Period.ofDays(90)));
    }
}
