package dev.cqlpatterns.platform.buckets;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.scheduling.ClusterLease;
import dev.cqlpatterns.platform.scheduling.JobRunner;
import dev.cqlpatterns.testsupport.FarTicks;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Two scheduler instances (two lease owners, as two replicas would be) against one Cassandra: each
 * cluster job runs exactly once per tick. Ticks are chosen far from now so the service's own scheduled
 * runs never compete for them, and at a random minute so runs on a kept node do not either.
 */
@QuarkusTest
class TwoReplicasTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    Cql cql;

    @Inject
    BucketRoller roller;

    @Inject
    BucketRegistry registry;

    @Inject
    JobRunner serviceRunner;

    @Inject
    Scheduler scheduler;

    private static double runs(MeterRegistry meters, String job, String outcome) {
        var counter = meters.find("scheduler.job.runs")
                .tag("job", job)
                .tag("outcome", outcome)
                .counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void should_run_each_job_exactly_once_per_tick_across_two_replicas() {
        MeterRegistry metersA = new SimpleMeterRegistry();
        MeterRegistry metersB = new SimpleMeterRegistry();
        JobRunner a = new JobRunner(ClusterLease.withRandomOwner(cql), metersA);
        JobRunner b = new JobRunner(ClusterLease.withRandomOwner(cql), metersB);
        TimeSeries series = TimeSeries.global("replicas-" + UUID.randomUUID(), Granularity.DAY, Optional.empty());
        Instant first = FarTicks.next();
        int ticks = 4;

        for (int tick = 0; tick < ticks; tick++) {
            // the roller ticks every 5 minutes: 5-minute steps are new ticks
            Instant now = first.plus(Duration.ofMinutes(5L * tick));
            List<JobRunner.Outcome> outcomes = Uni.join()
                    .all(roller.tick(a, List.of(series), now), roller.tick(b, List.of(series), now))
                    .andFailFast()
                    .await()
                    .atMost(WAIT);
            assertThat(outcomes)
                    .as("roller at %s", now)
                    .filteredOn(JobRunner.Outcome::ran)
                    .hasSize(1);

            // a replica firing late in the same tick finds it taken
            Instant late = now.plusSeconds(30);
            assertThat(roller.tick(a, List.of(series), late)
                            .await()
                            .atMost(WAIT)
                            .ran())
                    .isFalse();
            assertThat(roller.tick(b, List.of(series), late)
                            .await()
                            .atMost(WAIT)
                            .ran())
                    .isFalse();
        }

        assertThat(runs(metersA, BucketRoller.JOB, "ran") + runs(metersB, BucketRoller.JOB, "ran"))
                .isEqualTo(ticks);
        assertThat(runs(metersA, BucketRoller.JOB, "skipped") + runs(metersB, BucketRoller.JOB, "skipped"))
                .isEqualTo(ticks + 2 * ticks);
        // the roller's work happened once: the first tick opened the day, the others found it open
        double items = sum(metersA, metersB, "scheduler.job.items", BucketRoller.JOB);
        assertThat(items).isEqualTo(1);
        assertThat(registry.newestFirst(series, TimeSeries.GLOBAL, 99_999_999, 0, 10)
                        .await()
                        .atMost(WAIT))
                .containsExactly(Granularity.DAY.key(first));
        double timed = 0;
        for (MeterRegistry meters : List.of(metersA, metersB)) {
            var timer = meters.find("scheduler.job.duration")
                    .tag("job", BucketRoller.JOB)
                    .timer();
            timed += timer == null ? 0 : timer.count();
        }
        assertThat(timed).isEqualTo(ticks);
    }

    private static double sum(MeterRegistry a, MeterRegistry b, String name, String job) {
        double total = 0;
        for (MeterRegistry meters : List.of(a, b)) {
            var counter = meters.find(name).tag("job", job).counter();
            total += counter == null ? 0 : counter.count();
        }
        return total;
    }

    @Test
    void should_schedule_the_roller_and_publish_its_metrics() {
        assertThat(scheduler.getScheduledJob(BucketRoller.JOB)).isNotNull();

        TimeSeries series = TimeSeries.global("metrics-" + UUID.randomUUID(), Granularity.MONTH, Optional.empty());
        assertThat(roller.tick(serviceRunner, List.of(series), FarTicks.next())
                        .await()
                        .atMost(WAIT)
                        .ran())
                .isTrue();
        given().when()
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .body(containsString("scheduler_job_runs_total{job=\"bucket-roller\",outcome=\"ran\"}"))
                .body(containsString("scheduler_job_duration_seconds_count{job=\"bucket-roller\"}"))
                .body(containsString("scheduler_job_items_total{job=\"bucket-roller\"}"));
    }
}
