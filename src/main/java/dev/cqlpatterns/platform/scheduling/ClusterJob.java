package dev.cqlpatterns.platform.scheduling;

import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;

/**
 * A job that runs once per tick across all replicas, as a bean its feature produces. Always-on
 * deployments tick it in process every {@code every} ({@link InProcessTicks}, on while
 * {@code SCHEDULER_IN_PROCESS=true});
 * functions that scale to zero have nothing running between ticks, so a Kubernetes CronJob runs
 * the artifact as {@code job <name>} instead. Either way the tick is claimed with a lease in
 * Cassandra first.
 *
 * @param name the job's name in leases, metrics, the scheduler and the {@code job} command
 * @param every how often it runs, once per interval across all replicas
 * @param tick this replica's attempt at the tick an instant falls in
 */
public record ClusterJob(String name, Duration every, Function<Instant, Uni<JobRunner.Outcome>> tick) {

    /** This replica's attempt at the tick {@code now} falls in. */
    public Uni<JobRunner.Outcome> tick(Instant now) {
        return tick.apply(now);
    }

    /** A tick as the in-process scheduler runs it: a failure is logged and ends this tick only. */
    public Uni<Void> scheduledTick(Instant now) {
        return JobRunner.scheduled(name, tick(now));
    }
}
