package dev.cqlpatterns.platform.buckets;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which buckets of a time series hold data (table time_buckets).
 *
 * <p>Writers call {@link #record} before writing an event into a bucket, so a bucket is listed
 * before any of its rows exist and a reader never misses one. Each process remembers what it has
 * recorded, so a busy bucket costs one extra write per process, not one per event. Readers call
 * {@link #newestFirst} (one partition read) and visit only the buckets listed.
 *
 * <p>The roller drops old buckets of global series. Per-entity series cannot be enumerated (one
 * partition per conversation, course...), so a per-entity series with a retention lists each
 * bucket with a TTL instead: the row expires when the last data of its bucket does.
 */
@ApplicationScoped
public class BucketRegistry {
    private static final int REMEMBERED_MAX = 100_000;
    private static final Query RECORD =
            Cql.idempotent("INSERT INTO time_buckets (series, entity, bucket) VALUES (?, ?, ?)");
    private static final Query RECORD_EXPIRING =
            Cql.idempotent("INSERT INTO time_buckets (series, entity, bucket) VALUES (?, ?, ?) USING TTL ?");
    /** Kept past the data's own expiry, so a bucket is never unlisted while rows in it still live. */
    static final Duration EXPIRY_SLACK = Duration.ofHours(1);

    private static final Query OPEN = Cql.idempotent(
            "UPDATE time_buckets SET opened_at = ?, closed = false WHERE series = ? AND entity = ? AND bucket = ?");
    private static final Query CLOSE =
            Cql.idempotent("UPDATE time_buckets SET closed = true WHERE series = ? AND entity = ? AND bucket = ?");
    private static final Query DROP_OLDER =
            Cql.idempotent("DELETE FROM time_buckets WHERE series = ? AND entity = ? AND bucket < ?");
    private static final Query FORGET =
            Cql.idempotent("DELETE FROM time_buckets WHERE series = ? AND entity = ? AND bucket = ?");
    private static final Query NEWEST_FIRST = Cql.idempotent(
            "SELECT bucket FROM time_buckets WHERE series = ? AND entity = ? AND bucket <= ? AND bucket >= ? LIMIT ?");
    /** BucketRoller: the buckets around now, with whether each is open or closed. */
    private static final Query AROUND = Cql.idempotent("SELECT bucket, opened_at, closed FROM time_buckets "
            + "WHERE series = ? AND entity = ? AND bucket <= ? AND bucket >= ?");
    /** BucketRoller: whether any bucket older than the retention is left. */
    private static final Query ANY_OLDER =
            Cql.idempotent("SELECT bucket FROM time_buckets WHERE series = ? AND entity = ? AND bucket < ? LIMIT 1");

    @Inject
    Cql cql;

    private final Set<String> remembered = ConcurrentHashMap.newKeySet();

    /** Lists the bucket {@code at} falls in for this entity (TimeSeries.GLOBAL for global series). */
    public Uni<Integer> record(TimeSeries series, String entity, Instant at) {
        int bucket = series.granularity().key(at);
        String key = series.name() + '\u0000' + entity + '\u0000' + bucket;
        if (remembered.contains(key)) {
            return Uni.createFrom().item(bucket);
        }
        Uni<AsyncResultSet> written = series.perEntity() && series.retention().isPresent()
                ? cql.write(RECORD_EXPIRING, series.name(), entity, bucket, ttlSeconds(series, bucket))
                : cql.write(RECORD, series.name(), entity, bucket);
        return written.map(rs -> {
            if (remembered.size() >= REMEMBERED_MAX) {
                remembered.clear();
            }
            remembered.add(key);
            return bucket;
        });
    }

    /**
     * How long the listing of a bucket must outlive its recording: data written into the bucket
     * lives the retention from its write (a TTL), and writes reach the bucket for at most its
     * width after it was recorded; plus {@link #EXPIRY_SLACK}.
     */
    public static int ttlSeconds(TimeSeries series, int bucket) {
        Instant start = series.granularity().start(bucket);
        Instant retained = start.atZone(ZoneOffset.UTC)
                .plus(series.retention().orElseThrow())
                .toInstant();
        Duration retention = Duration.between(start, retained);
        Duration width = Duration.between(start, series.granularity().end(bucket));
        return Math.toIntExact(retention.plus(width).plus(EXPIRY_SLACK).getSeconds());
    }

    /**
     * The buckets with data between {@code newest} and {@code oldest} (both included, bucket
     * keys), newest first, at most {@code limit}. One partition read.
     */
    public Uni<List<Integer>> newestFirst(TimeSeries series, String entity, int newest, int oldest, int limit) {
        return cql.read(NEWEST_FIRST, series.name(), entity, newest, oldest, limit)
                .map(rs -> Cql.rows(rs).stream().map(row -> row.getInt(0)).toList());
    }

    /** The roller opens a bucket before its time begins. */
    public Uni<Void> open(TimeSeries series, String entity, int bucket, Instant now) {
        return cql.write(OPEN, now, series.name(), entity, bucket).replaceWithVoid();
    }

    /** The roller marks a finished bucket closed: no more writes are expected in it. */
    public Uni<Void> close(TimeSeries series, String entity, int bucket) {
        return cql.write(CLOSE, series.name(), entity, bucket).replaceWithVoid();
    }

    /**
     * Forgets one bucket of an entity that a reader found holds nothing to show and that no writer
     * can write into any more (the caller's rule; one row tombstone).
     */
    public Uni<Void> forget(TimeSeries series, String entity, int bucket) {
        return cql.write(FORGET, series.name(), entity, bucket).replaceWithVoid();
    }

    /** Forgets every bucket older than {@code oldestKept} (one range tombstone). */
    public Uni<Void> dropOlderThan(TimeSeries series, String entity, int oldestKept) {
        return cql.write(DROP_OLDER, series.name(), entity, oldestKept).replaceWithVoid();
    }

    /** A listed bucket as the roller sees it: when it was opened (null: never), and whether it is closed. */
    record State(Instant openedAt, Boolean closed) {
        static final State UNLISTED = new State(null, null);

        boolean opened() {
            return openedAt != null;
        }
    }

    /** The listed buckets from {@code newest} down to {@code oldest} (both included), by key. One partition read. */
    Uni<Map<Integer, State>> around(TimeSeries series, String entity, int newest, int oldest) {
        return cql.read(AROUND, series.name(), entity, newest, oldest).map(rs -> {
            Map<Integer, State> known = new HashMap<>();
            for (Row row : Cql.rows(rs)) {
                known.put(
                        row.getInt("bucket"),
                        new State(row.getInstant("opened_at"), row.isNull("closed") ? null : row.getBoolean("closed")));
            }
            return known;
        });
    }

    /** Whether any bucket older than {@code oldestKept} is listed. One partition read. */
    Uni<Boolean> anyOlderThan(TimeSeries series, String entity, int oldestKept) {
        return cql.read(ANY_OLDER, series.name(), entity, oldestKept).map(rs -> rs.one() != null);
    }
}
