package dev.cqlpatterns.platform.scheduling;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;

/**
 * A lease held in Cassandra (table leases): a lightweight transaction claims a name for one
 * owner, and a TTL frees it if the owner dies. The in-process scheduler fires on every replica and
 * skipping overlapping ticks guards one process only; this makes a job run once per tick
 * across all replicas. Conditional writes are never retried automatically (not idempotent).
 */
public class ClusterLease {
    private static final Query CLAIM =
            Cql.query("INSERT INTO leases (name, owner, acquired_at) VALUES (?, ?, ?) IF NOT EXISTS USING TTL ?");
    private static final Query RELEASE = Cql.query("DELETE FROM leases WHERE name = ? IF owner = ?");

    private final Cql cql;
    private final String owner;

    public ClusterLease(Cql cql, String owner) {
        this.cql = cql;
        this.owner = owner;
    }

    public static ClusterLease withRandomOwner(Cql cql) {
        return new ClusterLease(cql, UUID.randomUUID().toString());
    }

    public String owner() {
        return owner;
    }

    /** True when this owner now holds {@code name}; false when another one does. */
    public Uni<Boolean> tryAcquire(String name, Duration ttl, Instant now) {
        int seconds = (int) Math.max(1, ttl.toSeconds());
        return cql.write(CLAIM, name, owner, now, seconds).map(rs -> rs.wasApplied());
    }

    /**
     * Claims one tick of a job: the lease name is the job plus the tick's number, so every replica
     * firing for the same tick competes for the same name and exactly one wins. The lease is not
     * released; its TTL (a few ticks) cleans it up, and a replica firing late in the same tick
     * still finds it taken.
     */
    public Uni<Boolean> tryAcquireTick(String job, Instant fireTime, Duration interval) {
        long tick = Math.floorDiv(fireTime.toEpochMilli(), Math.max(1, interval.toMillis()));
        return tryAcquire(job + "@" + tick, interval.multipliedBy(3), fireTime);
    }

    public Uni<Boolean> release(String name) {
        return cql.write(RELEASE, name, owner).map(rs -> rs.wasApplied());
    }
}
