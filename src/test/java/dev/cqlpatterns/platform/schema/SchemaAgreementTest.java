package dev.cqlpatterns.platform.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The wait for schema agreement against a node whose pull of the coordinator's version was lost:
 * as Cassandra 5.0 does, it never asks for that version again, and takes only a version announced
 * after it.
 */
class SchemaAgreementTest {
    private static final Duration WAIT = Duration.ofSeconds(3);
    private static final Duration NUDGE = Duration.ofMillis(300);

    /** A coordinator and one node stuck behind it until the coordinator announces a new version. */
    private static final class StuckNode implements SchemaAgreement.Cluster {
        final AtomicInteger announced = new AtomicInteger();
        final AtomicInteger renewals = new AtomicInteger();
        final boolean pullsAgain;
        final boolean canAnnounce;
        volatile UUID coordinator = UUID.randomUUID();
        volatile UUID node = UUID.randomUUID();

        StuckNode(boolean pullsAgain, boolean canAnnounce) {
            this.pullsAgain = pullsAgain;
            this.canAnnounce = canAnnounce;
        }

        @Override
        public UUID coordinatorVersion() {
            return coordinator;
        }

        @Override
        public String lagging(UUID version) {
            return version.equals(node) ? null : "node-1";
        }

        @Override
        public boolean announce(Instant now) {
            if (!canAnnounce) {
                return false;
            }
            announced.incrementAndGet();
            coordinator = UUID.randomUUID();
            if (pullsAgain) {
                node = coordinator;
            }
            return true;
        }

        @Override
        public void stillWaiting() {
            renewals.incrementAndGet();
        }
    }

    @Test
    void should_end_the_wait_of_a_node_whose_pull_was_lost_by_announcing_a_new_version() {
        StuckNode cluster = new StuckNode(true, true);
        long began = System.nanoTime();

        SchemaAgreement.await(cluster, WAIT, NUDGE, Duration.ofMinutes(1), Duration.ofMillis(100), "node-3");

        assertThat(cluster.announced).hasValue(1);
        assertThat(Duration.ofNanos(System.nanoTime() - began)).isLessThan(WAIT);
        assertThat(cluster.renewals.get()).isPositive();
    }

    @Test
    void should_announce_again_after_the_pull_delay_and_give_up_at_the_wait() {
        StuckNode cluster = new StuckNode(false, true);

        assertThatThrownBy(() -> SchemaAgreement.await(cluster, WAIT, NUDGE, Duration.ofMillis(700), WAIT, "node-3"))
                .hasMessageContaining("node-1 has not reached the schema version of node-3 within PT3S");
        // At 0.3 s, then 1.3 s and 2.3 s: each after the nudge plus the pull delay.
        assertThat(cluster.announced).hasValue(3);
    }

    @Test
    void should_wait_without_announcing_while_the_cluster_cannot() {
        StuckNode cluster = new StuckNode(true, false);

        assertThatThrownBy(() ->
                        SchemaAgreement.await(cluster, Duration.ofSeconds(1), NUDGE, Duration.ZERO, WAIT, "node-3"))
                .isInstanceOf(IllegalStateException.class);
        assertThat(cluster.announced).hasValue(0);
    }

    @Test
    void should_not_wait_when_every_node_agrees() {
        StuckNode cluster = new StuckNode(true, true);
        cluster.node = cluster.coordinator;

        SchemaAgreement.await(cluster, WAIT, NUDGE, Duration.ZERO, WAIT, "node-3");

        assertThat(cluster.announced).hasValue(0);
    }
}
