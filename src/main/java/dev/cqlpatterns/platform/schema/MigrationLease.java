package dev.cqlpatterns.platform.schema;

import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.scheduling.ClusterLease;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * A migration run's hold on the lease {@value #NAME} (table leases, through {@link ClusterLease}):
 * concurrent DDL from two clients is how Cassandra ends up with schema disagreement, so only the
 * holder changes the schema. The run keeps it by calling {@link #keep} before each statement and on
 * each poll of its waits; it is renewed once a third of its TTL has passed since it was taken or
 * renewed, however long the step before took, so only a single step longer than two thirds of the
 * TTL (a statement times out at 30 s, the TTL is 60 s) lets it expire.
 */
final class MigrationLease {
    private static final Logger LOG = Logger.getLogger(MigrationLease.class);
    static final String NAME = "schema-migrations";
    /** The longest one of the lease's statements may take: the run's statement timeout, and a little more. */
    private static final Duration STATEMENT = Duration.ofSeconds(35);

    private final ClusterLease lease;
    private final Duration ttl;
    private final LongSupplier nanoTime;
    private long heldSince;

    private MigrationLease(ClusterLease lease, Duration ttl, LongSupplier nanoTime) {
        this.lease = lease;
        this.ttl = ttl;
        this.nanoTime = nanoTime;
    }

    /**
     * Takes the lease, waiting while another run holds it, at most {@code waitAtMost}. A claim found in
     * the row is this run's own when it is one that was sent again ({@link #answered}).
     */
    static MigrationLease acquire(ClusterLease lease, Duration ttl, Duration waitAtMost, LongSupplier nanoTime) {
        MigrationLease held = new MigrationLease(lease, ttl, nanoTime);
        Instant deadline = Instant.now().plus(waitAtMost);
        while (true) {
            long asked = nanoTime.getAsLong();
            ClusterLease.Claim claim = answered(
                    "claiming the schema migration lease", deadline, () -> lease.claim(NAME, ttl, Instant.now()));
            if (claim.applied() || lease.owner().equals(claim.holder())) {
                held.heldSince = asked;
                return held;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("another replica held the schema migration lease for longer than "
                        + waitAtMost + "; giving up");
            }
            LOG.info("Another replica is migrating the schema; waiting");
            SchemaAgreement.pause(500, "the migration lease");
        }
    }

    /**
     * The answer to one of the lease's conditional writes, sent again while it ends without one until
     * {@code until}: a Paxos round timed out, or too few replicas were up, as on a cluster whose nodes
     * have just started. A claim or a renewal may land twice: both are this run's, as the owner is.
     */
    private static <T> T answered(String what, Instant until, Supplier<Uni<T>> write) {
        while (true) {
            try {
                return write.get().await().atMost(STATEMENT);
            } catch (RuntimeException failure) {
                if (!unanswered(failure) || Instant.now().isAfter(until)) {
                    throw failure;
                }
                LOG.infof("%s got no answer (%s); sending it again", what, failure.getMessage());
                SchemaAgreement.pause(500, "the migration lease");
            }
        }
    }

    private static boolean unanswered(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof UnavailableException) {
                return true;
            }
        }
        return CompareAndSet.unknownOutcome(failure);
    }

    /** Renews the lease if a third of its TTL has passed since it was taken or renewed last. */
    void keep() {
        if (nanoTime.getAsLong() - heldSince >= ttl.toNanos() / 3) {
            renew();
        }
    }

    /** Renews the lease for its whole TTL; fails, saying why, if this run no longer holds it. */
    void renew() {
        long asked = nanoTime.getAsLong();
        Instant expires = Instant.now().plus(ttl).minusNanos(asked - heldSince);
        switch (answered("renewing the schema migration lease", expires, () -> lease.renew(NAME, ttl, Instant.now()))) {
            case RENEWED -> heldSince = asked;
            case EXPIRED ->
                throw new IllegalStateException("the schema migration lease expired: "
                        + Duration.ofNanos(asked - heldSince).toSeconds() + " s passed since this run last renewed it, "
                        + "more than its TTL of " + ttl + "; stopping, since another run may have changed the schema");
            case TAKEN ->
                throw new IllegalStateException("the schema migration lease expired and another run "
                        + "took it over; stopping so that two runs never change the schema at once");
        }
    }

    /** Releases the lease; if that fails, its TTL frees it, and the run's outcome stands. */
    void release() {
        try {
            lease.release(NAME).await().atMost(STATEMENT);
        } catch (RuntimeException failure) {
            LOG.warnf("Releasing the schema migration lease failed (%s); it expires after %s", failure, ttl);
        }
    }
}
