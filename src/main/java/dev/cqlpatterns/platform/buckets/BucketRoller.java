package dev.cqlpatterns.platform.buckets;

import dev.cqlpatterns.platform.buckets.BucketRegistry.State;
import dev.cqlpatterns.platform.scheduling.ClusterJob;
import dev.cqlpatterns.platform.scheduling.JobRunner;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The bucket roller: keeps the bucket registry (time_buckets) of every global time series up to
 * date, once per tick across all replicas. Every {@code @Produces TimeSeries} bean of the service
 * is found through CDI, so a new series needs no change here. For each global series it
 * <ul>
 * <li>opens the current bucket if nobody has, and the next one {@code open-ahead} before its time
 * begins, so readers listing buckets find it from its first instant;</li>
 * <li>closes the previous bucket {@code close-after} its end (late writes of skewed clocks still
 * land before that);</li>
 * <li>drops buckets older than the series' retention (one range tombstone, only when there are
 * such buckets).</li>
 * </ul>
 * Per-entity series (one set of buckets per conversation, course, group...) cannot be enumerated
 * without scanning time_buckets, so the roller leaves them alone: their writers list buckets as
 * they write, and their readers bound what they visit by {@link TimeSeries#oldestKept}.
 *
 * <p>The registry answers the roller each bucket's opened_at and closed, so the roller writes only
 * what changes.
 */
@ApplicationScoped
public class BucketRoller {
    public static final String JOB = "bucket-roller";

    @Inject
    Instance<TimeSeries> allSeries;

    @Inject
    BucketRegistry registry;

    @Inject
    JobRunner runner;

    @Inject
    Clock clock;

    @Inject
    RollerSettings settings;

    /** This job: ticked in process (platform.scheduling.InProcessTicks) or by the {@code job} command a CronJob runs. */
    @Produces
    @Singleton
    ClusterJob job() {
        return new ClusterJob(JOB, settings.every(), now -> tick(runner, globalSeries(), now));
    }

    /**
     * One tick on one replica: rolls each of {@code series} whose tick {@code runner} wins. Each
     * series is claimed on its own, since function groups deployed apart each hold only their
     * own series; it ran when any series did.
     */
    public Uni<JobRunner.Outcome> tick(JobRunner runner, List<TimeSeries> series, Instant now) {
        return Multi.createFrom()
                .iterable(series)
                .onItem()
                .transformToUniAndConcatenate(
                        s -> runner.run(JOB, JOB + "/" + s.name(), settings.every(), now, at -> roll(s, at)))
                .collect()
                .asList()
                .map(outcomes -> new JobRunner.Outcome(
                        outcomes.stream().anyMatch(JobRunner.Outcome::ran),
                        outcomes.stream().mapToInt(JobRunner.Outcome::items).sum()));
    }

    /** The global series of the service, by name (a name declared twice is rolled once). */
    public List<TimeSeries> globalSeries() {
        Map<String, TimeSeries> byName = new LinkedHashMap<>();
        allSeries.stream()
                .filter(s -> !s.perEntity())
                .sorted(Comparator.comparing(TimeSeries::name))
                .forEach(s -> byName.putIfAbsent(s.name(), s));
        return List.copyOf(byName.values());
    }

    /** Rolls each series at {@code now}; answers how many buckets were opened, closed or dropped. */
    public Uni<Integer> roll(List<TimeSeries> series, Instant now) {
        return Multi.createFrom()
                .iterable(series)
                .onItem()
                .transformToUniAndConcatenate(s -> roll(s, now))
                .collect()
                .with(Collectors.summingInt(Integer::intValue));
    }

    Uni<Integer> roll(TimeSeries series, Instant now) {
        Granularity g = series.granularity();
        int current = g.key(now);
        int next = g.next(current);
        int previous = g.previous(current);
        return registry.around(series, TimeSeries.GLOBAL, next, previous).chain(known -> {
            List<Uni<Void>> changes = new ArrayList<>();
            if (!known.getOrDefault(current, State.UNLISTED).opened()) {
                changes.add(registry.open(series, TimeSeries.GLOBAL, current, now));
            }
            boolean nextIsNear = !now.isBefore(g.start(next).minus(settings.openAhead()));
            if (nextIsNear && !known.getOrDefault(next, State.UNLISTED).opened()) {
                changes.add(registry.open(series, TimeSeries.GLOBAL, next, now));
            }
            State before = known.get(previous);
            boolean previousIsDone = !now.isBefore(g.end(previous).plus(settings.closeAfter()));
            if (before != null && previousIsDone && !Boolean.TRUE.equals(before.closed())) {
                changes.add(registry.close(series, TimeSeries.GLOBAL, previous));
            }
            int count = changes.size();
            Uni<Void> applied = changes.isEmpty()
                    ? Uni.createFrom().voidItem()
                    : Uni.join().all(changes).andFailFast().replaceWithVoid();
            return applied.chain(() -> dropExpired(series, now)).map(dropped -> count + dropped);
        });
    }

    /** Drops the buckets older than the series' retention, if there are any: 1 when it did, else 0. */
    private Uni<Integer> dropExpired(TimeSeries series, Instant now) {
        if (series.retention().isEmpty()) {
            return Uni.createFrom().item(0);
        }
        int oldestKept = series.oldestKept(now);
        return registry.anyOlderThan(series, TimeSeries.GLOBAL, oldestKept).chain(any -> {
            if (!any) {
                return Uni.createFrom().item(0);
            }
            return registry.dropOlderThan(series, TimeSeries.GLOBAL, oldestKept).replaceWith(1);
        });
    }
}
