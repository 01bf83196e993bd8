package dev.cqlpatterns.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.Period;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class BucketRegistryTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    private static final TimeSeries MONTHS =
            TimeSeries.perEntity("test-months", Granularity.MONTH, Optional.of(Period.ofMonths(24)));
    private static final TimeSeries DAYS =
            TimeSeries.global("test-days-" + UUID.randomUUID(), Granularity.DAY, Optional.empty());

    @Inject
    BucketRegistry registry;

    @Test
    void should_list_recorded_month_buckets_newest_first_across_a_year_end() {
        String entity = UUID.randomUUID().toString();
        for (String at : List.of(
                "2024-11-30T23:59:59Z", "2025-01-01T00:00:00Z", "2024-12-15T10:00:00Z", "2025-01-20T00:00:00Z")) {
            registry.record(MONTHS, entity, Instant.parse(at)).await().atMost(WAIT);
        }
        assertThat(registry.newestFirst(MONTHS, entity, 209912, 0, 10).await().atMost(WAIT))
                .containsExactly(202501, 202412, 202411);
        assertThat(registry.newestFirst(MONTHS, entity, 202412, 202412, 10)
                        .await()
                        .atMost(WAIT))
                .containsExactly(202412);
        assertThat(registry.newestFirst(MONTHS, UUID.randomUUID().toString(), 209912, 0, 10)
                        .await()
                        .atMost(WAIT))
                .isEmpty();
    }

    @Test
    void should_drop_buckets_older_than_retention() {
        String entity = UUID.randomUUID().toString();
        for (String day : List.of("2025-12-30", "2025-12-31", "2026-01-01")) {
            registry.record(DAYS, entity, Instant.parse(day + "T12:00:00Z"))
                    .await()
                    .atMost(WAIT);
        }
        registry.dropOlderThan(DAYS, entity, 20251231).await().atMost(WAIT);
        assertThat(registry.newestFirst(DAYS, entity, 99999999, 0, 10).await().atMost(WAIT))
                .containsExactly(20260101, 20251231);
    }

    @Test
    void should_compute_day_and_month_boundaries_in_utc() {
        assertThat(Granularity.DAY.key(Instant.parse("2025-12-31T23:59:59.999Z")))
                .isEqualTo(20251231);
        assertThat(Granularity.DAY.next(20251231)).isEqualTo(20260101);
        assertThat(Granularity.MONTH.previous(202601)).isEqualTo(202512);
        assertThat(Granularity.MONTH.end(202402)).isEqualTo(Instant.parse("2024-03-01T00:00:00Z"));
        assertThat(MONTHS.oldestKept(Instant.parse("2026-01-15T00:00:00Z"))).isEqualTo(202401);
    }

    @Test
    void should_keep_a_per_entity_bucket_listed_until_the_data_written_into_it_has_expired() {
        TimeSeries views = TimeSeries.perEntity("test-views", Granularity.DAY, Optional.of(Period.ofDays(90)));
        // a day of data lives 90 days from its last write, which comes at most a day after the first
        assertThat(BucketRegistry.ttlSeconds(views, 20260315))
                .isEqualTo(Duration.ofDays(91).plus(Duration.ofHours(1)).toSeconds());
        // months are as long as they are: February 2024 had 29 days, and 24 months from it is 731 days
        assertThat(BucketRegistry.ttlSeconds(MONTHS, 202402))
                .isEqualTo(Duration.ofDays(731 + 29).plus(Duration.ofHours(1)).toSeconds());

        String entity = UUID.randomUUID().toString();
        registry.record(views, entity, Instant.parse("2026-03-15T08:00:00Z"))
                .await()
                .atMost(WAIT);
        assertThat(registry.newestFirst(views, entity, 99999999, 0, 10).await().atMost(WAIT))
                .containsExactly(20260315);
    }
}
