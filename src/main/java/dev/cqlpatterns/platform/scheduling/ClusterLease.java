package dev.cqlpatterns.platform.scheduling;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
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
 * across all replicas; the schema migrator holds one for its whole run. Conditional writes are never
 * retried automatically (not idempotent).
 */
public class ClusterLease {
    private static final Query CLAIM =
            Cql.query("INSERT INTO leases (name, owner, acquired_at) VALUES (?, ?, ?) IF NOT EXISTS USING TTL ?");
    private static final Query RENEW =
            Cql.query("UPDATE leases USING TTL ? SET owner = ?, acquired_at = ? WHERE name = ? IF owner = ?");
    private static final Query RELEASE = Cql.query("DELETE FROM leases WHERE name = ? IF owner = ?");

    /**
     * How the lease's statements reach Cassandra: through {@link Cql} (the scheduler's, prepared), or
     * to the one node a schema migration run talks to, in the keyspace it migrates.
     */
    @FunctionalInterface
    public interface Statements {
        Uni<AsyncResultSet> run(Query statement, Object... values);
    }

    /** What a renewal found: the lease renewed, gone after its TTL, or held by another owner. */
    public enum Renewal {
        RENEWED,
        EXPIRED,
        TAKEN
    }

    private final Statements statements;
    private final String owner;

    public ClusterLease(Cql cql, String owner) {
        this(cql::write, owner);
    }

    public ClusterLease(Statements statements, String owner) {
        this.statements = statements;
        this.owner = owner;
    }

    public static ClusterLease withRandomOwner(Cql cql) {
        return new ClusterLease(cql, UUID.randomUUID().toString());
    }

    public String owner() {
        return owner;
    }

    /** What a claim found: whether it took the lease, and the owner that holds it now (null: not known). */
    public record Claim(boolean applied, String holder) {}

    /** True when this claim took {@code name}; false when an owner held it already (this one too). */
    public Uni<Boolean> tryAcquire(String name, Duration ttl, Instant now) {
        return claim(name, ttl, now).map(Claim::applied);
    }

    /**
     * Claims {@code name} for {@code ttl} from {@code now}. Not applied, Cassandra answers with the row it
     * found, whose owner may be this one: an earlier claim of this owner that timed out but committed.
     */
    public Uni<Claim> claim(String name, Duration ttl, Instant now) {
        int seconds = (int) Math.max(1, ttl.toSeconds());
        return statements.run(CLAIM, name, owner, now, seconds).map(rs -> {
            if (rs.wasApplied()) {
                return new Claim(true, owner);
            }
            return new Claim(false, holder(rs));
        });
    }

    /**
     * Holds {@code name} for {@code ttl} more from {@code now}, if this owner still holds it. Not
     * applied, Cassandra answers with the row it found: none when the lease expired, another owner's
     * when that one took it over.
     */
    public Uni<Renewal> renew(String name, Duration ttl, Instant now) {
        int seconds = (int) Math.max(1, ttl.toSeconds());
        return statements.run(RENEW, seconds, owner, now, name, owner).map(rs -> {
            if (rs.wasApplied()) {
                return Renewal.RENEWED;
            }
            return holder(rs) != null ? Renewal.TAKEN : Renewal.EXPIRED;
        });
    }

    /** The owner in the row a conditional write that was not applied found; null when there was none. */
    private static String holder(AsyncResultSet notApplied) {
        Row found = notApplied.one();
        return found != null && found.getColumnDefinitions().contains("owner") ? found.getString("owner") : null;
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
        return statements.run(RELEASE, name, owner).map(AsyncResultSet::wasApplied);
    }
}
