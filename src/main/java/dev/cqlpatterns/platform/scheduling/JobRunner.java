package dev.cqlpatterns.platform.scheduling;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.function.Function;
import org.jboss.logging.Logger;

/**
 * Runs a job once per tick across all replicas. The in-process scheduler fires on every replica, and
 * skipping a tick while the last one runs guards one process only; so each replica first claims the
 * tick with a lease in Cassandra (a lightweight transaction with a TTL), and only the one that
 * wins runs the job. Ticks are the job's interval, counted from the epoch, so replicas started at
 * different times still compete for the same tick.
 *
 * <p>Metrics, tagged with the job's name: {@code scheduler.job.runs} (outcome ran, skipped: another
 * replica had the tick, or failed), {@code scheduler.job.duration} and {@code scheduler.job.items}
 * (what the job handled).
 */
public class JobRunner {
    private static final Logger LOG = Logger.getLogger(JobRunner.class);

    private final ClusterLease lease;
    private final MeterRegistry meters;

    /** What one replica did in one tick. */
    public record Outcome(boolean ran, int items) {
        static Outcome skipped() {
            return new Outcome(false, 0);
        }
    }

    public JobRunner(ClusterLease lease, MeterRegistry meters) {
        this.lease = lease;
        this.meters = meters;
    }

    /**
     * A tick as the in-process scheduler runs it: a failure is logged and ends this tick only,
     * so the next tick runs as usual.
     */
    public static Uni<Void> scheduled(String job, Uni<?> tick) {
        return tick.onFailure()
                .invoke(failure -> LOG.warnf("%s failed: %s", job, failure.toString()))
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    /**
     * Claims the tick {@code now} falls in and, if this replica won it, runs {@code work} with
     * {@code now}; {@code work} answers how many items it handled.
     */
    public Uni<Outcome> run(String job, Duration interval, Instant now, Function<Instant, Uni<Integer>> work) {
        return run(job, job, interval, now, work);
    }

    /**
     * As {@link #run(String, Duration, Instant, Function)}, with the tick claimed under
     * {@code leaseName}: a job whose work is split (the roller's series) claims each part on its
     * own, so deployments that hold different parts never take each other's tick.
     */
    public Uni<Outcome> run(
            String job, String leaseName, Duration interval, Instant now, Function<Instant, Uni<Integer>> work) {
        return lease.tryAcquireTick(leaseName, now, interval)
                .onFailure()
                .invoke(failure -> runs(job, "failed").increment())
                .chain(won -> {
                    if (!won) {
                        runs(job, "skipped").increment();
                        return Uni.createFrom().item(Outcome.skipped());
                    }
                    Timer.Sample sample = Timer.start(meters);
                    return Uni.createFrom()
                            .deferred(() -> work.apply(now))
                            .onItemOrFailure()
                            .invoke((items, failure) -> {
                                sample.stop(Timer.builder("scheduler.job.duration")
                                        .description("How long one run of a job took")
                                        .tag("job", job)
                                        .register(meters));
                                runs(job, failure == null ? "ran" : "failed").increment();
                                if (failure == null) {
                                    Counter.builder("scheduler.job.items")
                                            .description("Items a job handled")
                                            .tag("job", job)
                                            .register(meters)
                                            .increment(items);
                                    LOG.debugf("%s ran at %s on %s: %d items", job, now, lease.owner(), items);
                                }
                            })
                            .map(items -> new Outcome(true, items));
                });
    }

    private Counter runs(String job, String outcome) {
        return Counter.builder("scheduler.job.runs")
                .description("Ticks of a job, by what this replica did")
                .tag("job", job)
                .tag("outcome", outcome)
                .register(meters);
    }
}
