package dev.cqlpatterns.platform.schema;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import org.jboss.logging.Logger;

/**
 * The wait after a schema change until every node that is up reports the coordinator's schema
 * version, for at most {@code wait}.
 *
 * <p>A node that lags past {@code nudge} is made to pull again. A node learns a new version by a
 * push, or else pulls it; Cassandra 5.0 drops a pull whose answer never comes (a busy node, a lost
 * message) without noting that it failed, and asks no more for that version while the request is
 * outstanding, so the node would lag for good. A new version of the coordinator ends that: the
 * cluster {@link Cluster#announce announces} one by a harmless schema change, and the node pulls
 * the whole schema within Cassandra's pull delay, after which the next nudge may come.
 */
final class SchemaAgreement {
    private static final Logger LOG = Logger.getLogger(SchemaAgreement.class);

    /** What the wait asks of the cluster. */
    interface Cluster {
        /** The coordinator's schema version now. */
        UUID coordinatorVersion();

        /** A node that is up and not at {@code version}, named; null when there is none. */
        String lagging(UUID version);

        /** Changes the coordinator's schema harmlessly, so that it has a new version; false when it cannot yet. */
        boolean announce(Instant now);

        /** Called on each poll while a node lags (the migration run keeps its lease). */
        void stillWaiting();
    }

    private SchemaAgreement() {}

    static void await(
            Cluster cluster,
            Duration wait,
            Duration nudge,
            Duration pullDelay,
            Duration reportEvery,
            String coordinator) {
        Instant began = Instant.now();
        Instant deadline = began.plus(wait);
        Instant reportAt = began.plus(reportEvery);
        Instant nudgeAt = began.plus(nudge);
        for (String lagging; (lagging = cluster.lagging(cluster.coordinatorVersion())) != null; ) {
            Instant now = Instant.now();
            Duration waited = Duration.between(began, now);
            if (now.isAfter(deadline)) {
                throw new IllegalStateException("node " + lagging + " has not reached the schema version of "
                        + coordinator + " within " + wait);
            }
            if (now.isAfter(nudgeAt) && cluster.announce(now)) {
                LOG.warnf(
                        "Node %s had not reached the schema version of %s after %d s: %s announced a new one",
                        lagging, coordinator, waited.toSeconds(), coordinator);
                nudgeAt = now.plus(nudge).plus(pullDelay);
            }
            if (now.isAfter(reportAt)) {
                LOG.infof(
                        "Node %s has not reached the schema version of %s after %d s; still waiting",
                        lagging, coordinator, waited.toSeconds());
                reportAt = now.plus(reportEvery);
            }
            cluster.stillWaiting();
            pause(100, "schema agreement");
        }
    }

    /** The migrator's waits (for the lease, for agreement) run on the caller's thread: a command or start-up. */
    static void pause(long millis, String waitingFor) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + waitingFor, e);
        }
    }
}
