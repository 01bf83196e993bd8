package dev.cqlpatterns.platform.schema;

import dev.cqlpatterns.platform.scheduling.ClusterLease;
import java.time.Duration;
import java.time.Instant;
import java.util.function.LongSupplier;
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

    /** Takes the lease, waiting while another run holds it, at most {@code waitAtMost}. */
    static MigrationLease acquire(ClusterLease lease, Duration ttl, Duration waitAtMost, LongSupplier nanoTime) {
        MigrationLease held = new MigrationLease(lease, ttl, nanoTime);
        Instant deadline = Instant.now().plus(waitAtMost);
        while (true) {
            long asked = nanoTime.getAsLong();
            if (lease.tryAcquire(NAME, ttl, Instant.now()).await().atMost(STATEMENT)) {
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

    /** Renews the lease if a third of its TTL has passed since it was taken or renewed last. */
    void keep() {
        if (nanoTime.getAsLong() - heldSince >= ttl.toNanos() / 3) {
            renew();
        }
    }

    /** Renews the lease for its whole TTL; fails, saying why, if this run no longer holds it. */
    void renew() {
        long asked = nanoTime.getAsLong();
        switch (lease.renew(NAME, ttl, Instant.now()).await().atMost(STATEMENT)) {
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

    void release() {
        lease.release(NAME).await().atMost(STATEMENT);
    }
}
