package dev.cqlpatterns.platform.buckets;

import java.time.Instant;
import java.time.Period;
import java.util.Optional;

/**
 * A time-bucketed series of the service, e.g. clickstream months or message months of each
 * conversation. Features declare theirs as {@code @Produces @Singleton TimeSeries} beans, so the
 * bucket roller finds every series without a list to maintain.
 *
 * @param name        stable name, the {@code series} column of time_buckets
 * @param granularity width of one bucket
 * @param retention   how long buckets are kept; empty for as long as the data lives
 * @param perEntity   true when every entity (conversation, course, group) has its own buckets;
 *                    false for one global series, stored with entity ''
 */
public record TimeSeries(String name, Granularity granularity, Optional<Period> retention, boolean perEntity) {

    public static final String GLOBAL = "";

    public static TimeSeries global(String name, Granularity granularity, Optional<Period> retention) {
        return new TimeSeries(name, granularity, retention, false);
    }

    public static TimeSeries perEntity(String name, Granularity granularity, Optional<Period> retention) {
        return new TimeSeries(name, granularity, retention, true);
    }

    /** The oldest bucket still within retention at {@code now}; Integer.MIN_VALUE without retention. */
    public int oldestKept(Instant now) {
        return retention
                .map(r -> granularity.key(
                        now.atZone(java.time.ZoneOffset.UTC).minus(r).toInstant()))
                .orElse(Integer.MIN_VALUE);
    }
}
