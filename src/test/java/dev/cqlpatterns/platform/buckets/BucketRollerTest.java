package dev.cqlpatterns.platform.buckets;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.clickstream.ClickstreamSeries;
import dev.cqlpatterns.pastebin.PublicPasteList;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.Period;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The roller at chosen instants around day, month and year ends (open-ahead PT2H, close-after
 * PT10M, the defaults). Each test rolls a series of its own, never the service's.
 */
@QuarkusTest
class BucketRollerTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    BucketRoller roller;

    @Inject
    BucketRegistry registry;

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    record Bucket(Instant openedAt, Boolean closed) {}

    private Map<Integer, Bucket> buckets(TimeSeries series) {
        Map<Integer, Bucket> buckets = new TreeMap<>();
        for (Row row : session.execute(SimpleStatement.newInstance(
                "SELECT bucket, opened_at, closed FROM " + settings.keyspace()
                        + ".time_buckets WHERE series = ? AND entity = ''",
                series.name()))) {
            buckets.put(
                    row.getInt("bucket"),
                    new Bucket(row.getInstant("opened_at"), row.isNull("closed") ? null : row.getBoolean("closed")));
        }
        return buckets;
    }

    private int roll(TimeSeries series, String at) {
        return roller.roll(List.of(series), Instant.parse(at)).await().atMost(WAIT);
    }

    @Test
    void should_open_the_next_month_before_the_year_ends_and_close_the_old_one_after() {
        TimeSeries months = TimeSeries.global("months-" + UUID.randomUUID(), Granularity.MONTH, Optional.empty());

        assertThat(roll(months, "2026-12-31T21:59:59Z")).isEqualTo(1);
        assertThat(buckets(months)).containsOnlyKeys(202612);

        assertThat(roll(months, "2026-12-31T22:00:00Z")).isEqualTo(1);
        assertThat(buckets(months)).containsOnlyKeys(202612, 202701);
        assertThat(buckets(months).get(202701)).isEqualTo(new Bucket(Instant.parse("2026-12-31T22:00:00Z"), false));

        assertThat(roll(months, "2026-12-31T23:30:00Z")).isZero();
        assertThat(roll(months, "2027-01-01T00:09:59Z")).isZero();
        assertThat(buckets(months).get(202612).closed()).isFalse();

        assertThat(roll(months, "2027-01-01T00:10:00Z")).isEqualTo(1);
        assertThat(buckets(months).get(202612).closed()).isTrue();
        assertThat(buckets(months).get(202701).closed()).isFalse();
        assertThat(roll(months, "2027-01-01T00:20:00Z")).isZero();
    }

    @Test
    void should_roll_days_over_a_month_end_and_a_leap_day() {
        TimeSeries days = TimeSeries.global("days-" + UUID.randomUUID(), Granularity.DAY, Optional.empty());

        assertThat(roll(days, "2028-02-28T23:00:00Z")).isEqualTo(2);
        assertThat(buckets(days)).containsOnlyKeys(20280228, 20280229);

        assertThat(roll(days, "2028-02-29T23:59:59.999Z")).isEqualTo(2); // closes the 28th, opens March 1st
        assertThat(buckets(days)).containsOnlyKeys(20280228, 20280229, 20280301);
        assertThat(buckets(days).get(20280228).closed()).isTrue();

        assertThat(roll(days, "2028-03-01T00:10:00Z")).isEqualTo(1);
        assertThat(buckets(days).get(20280229).closed()).isTrue();
        assertThat(buckets(days).get(20280301).closed()).isFalse();
    }

    @Test
    void should_open_a_bucket_a_writer_listed_but_nobody_opened() {
        TimeSeries days = TimeSeries.global("written-" + UUID.randomUUID(), Granularity.DAY, Optional.empty());
        registry.record(days, TimeSeries.GLOBAL, Instant.parse("2026-06-15T08:00:00Z"))
                .await()
                .atMost(WAIT);
        assertThat(buckets(days).get(20260615).openedAt()).isNull();

        assertThat(roll(days, "2026-06-15T12:00:00Z")).isEqualTo(1);
        assertThat(buckets(days).get(20260615).openedAt()).isEqualTo(Instant.parse("2026-06-15T12:00:00Z"));
    }

    @Test
    void should_drop_buckets_older_than_the_retention() {
        TimeSeries days =
                TimeSeries.global("kept-" + UUID.randomUUID(), Granularity.DAY, Optional.of(Period.ofDays(3)));
        for (int day = 1; day <= 10; day++) {
            registry.record(days, TimeSeries.GLOBAL, Instant.parse(String.format("2026-01-%02dT12:00:00Z", day)))
                    .await()
                    .atMost(WAIT);
        }

        // open the 10th (listed by a writer), close the 9th, drop everything before the 7th
        assertThat(roll(days, "2026-01-10T12:00:00Z")).isEqualTo(3);
        assertThat(buckets(days)).containsOnlyKeys(20260107, 20260108, 20260109, 20260110);
        assertThat(registry.newestFirst(
                                days,
                                TimeSeries.GLOBAL,
                                20260110,
                                days.oldestKept(Instant.parse("2026-01-10T12:00:00Z")),
                                10)
                        .await()
                        .atMost(WAIT))
                .containsExactly(20260110, 20260109, 20260108, 20260107);

        // nothing left to drop: no new range tombstone
        assertThat(roll(days, "2026-01-10T13:00:00Z")).isZero();
    }

    @Test
    void should_roll_every_global_series_bean_and_leave_per_entity_ones() {
        List<String> names =
                roller.globalSeries().stream().map(TimeSeries::name).toList();
        assertThat(names)
                .contains(PublicPasteList.SERIES, ClickstreamSeries.NAME, TestSeries.GLOBAL_NAME)
                .doesNotContain(TestSeries.PER_ENTITY_NAME);
        assertThat(roller.globalSeries()).noneMatch(TimeSeries::perEntity);
    }
}
