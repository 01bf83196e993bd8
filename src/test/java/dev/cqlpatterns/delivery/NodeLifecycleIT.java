package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cqlpatterns.testsupport.AuditedLoad;
import dev.cqlpatterns.testsupport.ContractClient;
import dev.cqlpatterns.testsupport.TestCluster;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A node decommissioned and a dead node replaced, under the mixed load of {@link AuditedLoad}, on
 * the packaged service and a 4-node cluster at RF 3 and LOCAL_QUORUM: node 4 leaves the ring
 * ({@code nodetool decommission}, its ranges streamed to the others), then node 3 is killed and,
 * once the others see it down, node 5 starts from empty data in its place
 * ({@code replace_address_first_boot}, its ranges streamed from the two other replicas). Then the
 * write audit, and at most 0.5 % of writes and 1 % of reads failed on their first attempt while
 * the ring changed, as in ClusterFaultsIT.
 *
 * <p>Long (about 8 minutes, five nodes started on this machine): not in CI; bin/fault-tests runs
 * it, or {@code -Dnode.lifecycle=true}.
 */
class NodeLifecycleIT {
    private static final int NODES = 4;
    private static final int CLIENTS = 8;
    /** Longer than the ~17 s the others take to mark a killed node down: a live node cannot be replaced. */
    private static final Duration DOWN_FOR = Duration.ofSeconds(30);

    private static TestCluster cluster;
    private static ServiceOnCluster service;

    @BeforeAll
    static void startClusterAndService() throws Exception {
        assumeTrue(Boolean.getBoolean("node.lifecycle"), "long: bin/fault-tests, or -Dnode.lifecycle=true");
        cluster = new TestCluster(NODES);
        cluster.start();
        service = ServiceOnCluster.start(cluster, 3, "cql_patterns_lifecycle", "node-lifecycle");
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (service != null) {
            service.stop();
        }
        if (cluster != null) {
            cluster.stop();
        }
    }

    @Test
    void should_keep_every_acknowledged_write_while_a_node_leaves_and_one_is_replaced() throws Exception {
        AuditedLoad load = new AuditedLoad("node lifecycle", CLIENTS, new ContractClient(() -> service.port));
        load.explainFailuresWith(service::warningsBetween);
        load.setUp();
        load.start();
        List<String> changes = List.of("decommissioning node 4", "node 3 killed", "replacing node 3 by node 5");
        try {
            load.phase("steady", Duration.ofSeconds(10));
            load.phase(changes.get(0), Duration.ZERO);
            long began = System.nanoTime();
            cluster.nodetool(4, "decommission");
            System.out.printf(
                    "node lifecycle: node 4 decommissioned in %d s%n",
                    Duration.ofNanos(System.nanoTime() - began).toSeconds());
            cluster.node(4, "stop");
            load.phase("three nodes", Duration.ofSeconds(10));

            cluster.node(3, "kill");
            load.phase(changes.get(1), DOWN_FOR);
            load.phase(changes.get(2), Duration.ZERO);
            began = System.nanoTime();
            cluster.replace(5, 3);
            System.out.printf(
                    "node lifecycle: node 5 replaced node 3 and serves after %d s%n",
                    Duration.ofNanos(System.nanoTime() - began).toSeconds());
            load.phase("node 5 serving", Duration.ofSeconds(15));
        } finally {
            load.stop();
        }
        load.report();
        List<String> problems = new ArrayList<>(load.audit());
        problems.addAll(load.firstAttemptFailures(changes, 0.005, 0.01));
        assertThat(problems)
                .as("what the clients were told against what is stored")
                .isEmpty();
    }
}
