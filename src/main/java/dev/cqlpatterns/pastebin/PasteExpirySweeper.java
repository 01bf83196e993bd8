package dev.cqlpatterns.pastebin;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.scheduling.ClusterJob;
import dev.cqlpatterns.platform.scheduling.JobRunner;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

/**
 * The paste expiry sweeper, a scheduler job run once per tick across all replicas: takes off
 * latest_public_pastes every listed paste whose expiry has passed, including expiries that were
 * brought forward, so the list holds no expired paste even between TTL and compaction.
 *
 * <p>It does not scan the list: public_paste_expiries holds, by day of expiry, one row per listed
 * row that expires (written before the list row), and a run reads the slice of the
 * last {@code lookback} (one or two day partitions). Each list row is deleted USING TIMESTAMP of
 * the version that was listed with that expiry: a newer version of the paste (an extended expiry,
 * say) is written at a higher timestamp and survives. GET /pastes also skips expired rows itself;
 * the sweeper keeps them from piling up in front of readers.
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class PasteExpirySweeper {
    public static final String JOB = "paste-expiry-sweeper";
    /** Expiry rows live a day past their expiry, so looking back further finds nothing. */
    private static final Duration MAX_LOOKBACK = Duration.ofSeconds(PublicPasteList.EXPIRY_ROW_GRACE_SECONDS);

    private static final int PAGE_SIZE = 200;

    @Inject
    Cql cql;

    @Inject
    PublicPasteList list;

    @Inject
    JobRunner runner;

    @Inject
    Clock clock;

    @Inject
    PasteSweeperSettings settings;

    /** This job: ticked in process (platform.scheduling.InProcessTicks) or by the {@code job} command a CronJob runs. */
    @Produces
    @Singleton
    ClusterJob job() {
        return new ClusterJob(JOB, settings.every(), now -> tick(runner, now));
    }

    /** One tick on one replica: sweeps if {@code runner} wins the tick. */
    public Uni<JobRunner.Outcome> tick(JobRunner runner, Instant now) {
        return runner.run(JOB, settings.every(), now, this::sweep);
    }

    /** Takes off the list what expired in (now - lookback, now]; answers how many list rows it deleted. */
    public Uni<Integer> sweep(Instant now) {
        Duration lookback = settings.lookback();
        Instant from = now.minus(lookback.compareTo(MAX_LOOKBACK) > 0 ? MAX_LOOKBACK : lookback);
        int firstDay = Granularity.DAY.key(from);
        int lastDay = Granularity.DAY.key(now);
        Uni<Integer> swept = sweepDay(firstDay, from, now, null);
        return firstDay == lastDay
                ? swept
                : swept.chain(n -> sweepDay(lastDay, from, now, null).map(m -> n + m));
    }

    private Uni<Integer> sweepDay(int day, Instant from, Instant to, ByteBuffer pagingState) {
        return cql.read(PublicPasteList.DUE, b -> b.setPageSize(PAGE_SIZE).setPagingState(pagingState), day, from, to)
                .chain(rs -> unlist(Cql.rows(rs))
                        .chain(n -> more(rs)
                                ? sweepDay(day, from, to, rs.getExecutionInfo().getPagingState())
                                        .map(m -> n + m)
                                : Uni.createFrom().item(n)));
    }

    private static boolean more(AsyncResultSet rs) {
        return rs.hasMorePages() && rs.getExecutionInfo().getPagingState() != null;
    }

    private Uni<Integer> unlist(List<Row> due) {
        if (due.isEmpty()) {
            return Uni.createFrom().item(0);
        }
        return Uni.join()
                .all(due.stream()
                        .map(row -> list.hideByExpiry(
                                row.getInt("listed_day"),
                                row.getInstant("listed_created_at"),
                                row.getUuid("id"),
                                row.getLong("listed_version")))
                        .toList())
                .andFailFast()
                .replaceWith(due.size());
    }
}
