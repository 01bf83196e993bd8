package dev.cqlpatterns.platform.schema;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.scheduling.ClusterLease;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * A run keeps its lease however long one of its steps takes, as long as no single statement takes
 * most of the TTL: on a loaded cluster, the baseline's dozens of CREATE TABLEs queue on the node
 * for longer than the TTL, and a run that renewed only between files and during agreement waits
 * lost a lease nobody else wanted, and stopped. And a claim that got no answer is sent again, and
 * recognised as the run's own once it committed: the migrate command on a 3-node cluster whose nodes
 * had just started failed on such a timeout.
 */
@QuarkusTest
@TestProfile(MigrationLeaseTest.ShortLease.class)
class MigrationLeaseTest {
    private static final Logger LOG = Logger.getLogger(MigrationLeaseTest.class);

    /** A lease of 2 s (Cassandra counts a TTL in whole seconds), renewed once 0.67 s passed. */
    public static class ShortLease implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cql-patterns.cassandra.migrations.lease-ttl", "PT2S");
        }
    }

    @Inject
    Migrations migrations;

    @Inject
    QuarkusCqlSession session;

    @Inject
    Cql cql;

    @Test
    void a_run_whose_schema_changes_queue_behind_others_should_keep_its_lease() {
        String id = UUID.randomUUID().toString().substring(0, 8);
        String fresh = "lease_kept_" + id;
        String other = "lease_queue_" + id;
        execute("CREATE KEYSPACE " + other
                + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
        try {
            // Schema changes of another client, which the node applies one at a time before the run's.
            long began = System.nanoTime();
            CompletableFuture<?> queued = CompletableFuture.allOf(IntStream.range(0, 60)
                    .mapToObj(i -> session.executeAsync(
                                    statement("CREATE TABLE " + other + ".t" + i + " (k int PRIMARY KEY, v text)"))
                            .toCompletableFuture())
                    .toArray(CompletableFuture[]::new));

            List<String> applied = migrations.migrate(fresh, true);

            queued.join();
            LOG.infof(
                    "The run and the other client's schema changes took %d ms",
                    (System.nanoTime() - began) / 1_000_000);
            assertThat(applied)
                    .isEqualTo(MigrationFiles.load().stream()
                            .map(MigrationFiles.Migration::name)
                            .toList());
        } finally {
            execute("DROP KEYSPACE IF EXISTS " + fresh);
            execute("DROP KEYSPACE IF EXISTS " + other);
        }
    }

    @Test
    void a_claim_that_committed_but_timed_out_should_hold_the_lease_once_sent_again() {
        // As a Paxos round on a cluster whose nodes have just started: the claim commits, the answer times out.
        Node node = session.getMetadata().getNodes().values().iterator().next();
        AtomicInteger sent = new AtomicInteger();
        ClusterLease timingOut = new ClusterLease(
                (query, values) -> {
                    Uni<AsyncResultSet> write = cql.write(query, values);
                    return sent.getAndIncrement() > 0
                            ? write
                            : write.chain(committed -> Uni.createFrom()
                                    .failure(new WriteTimeoutException(
                                            node, DefaultConsistencyLevel.LOCAL_SERIAL, 1, 2, DefaultWriteType.CAS)));
                },
                UUID.randomUUID().toString());

        MigrationLease held =
                MigrationLease.acquire(timingOut, Duration.ofMinutes(1), Duration.ofSeconds(20), System::nanoTime);
        try {
            assertThat(sent).as("claims sent").hasValue(2);
            assertThat(ClusterLease.withRandomOwner(cql)
                            .tryAcquire(MigrationLease.NAME, Duration.ofMinutes(1), Instant.now())
                            .await()
                            .atMost(Duration.ofSeconds(10)))
                    .as("another run's claim")
                    .isFalse();
        } finally {
            held.release();
        }
    }

    private void execute(String cql) {
        session.execute(statement(cql));
    }

    private static SimpleStatement statement(String cql) {
        return SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(60));
    }
}
