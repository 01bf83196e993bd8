package dev.cqlpatterns.testsupport;

import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A Cassandra cluster of several nodes that a test starts itself with {@code bin/cassandra-local
 * cluster}: its own folder and its own loopback addresses (127.0.0.21, .22, ... by default,
 * {@code CQL_TEST_CLUSTER_HOST}) and JMX ports, so it runs beside a developer's cluster and the
 * single test node. Nodes are numbered from 1; node 1 is the seed.
 */
public final class TestCluster {
    private final int size;
    private final Map<String, String> env;
    private final int firstHost;

    public TestCluster(int size) {
        this.size = size;
        this.firstHost = Integer.parseInt(CassandraTestResource.envOr("CQL_TEST_CLUSTER_HOST", "21"));
        this.env = Map.of(
                "CASSANDRA_CLUSTER_DIR",
                        CassandraTestResource.root()
                                .resolve(".cassandra/test-cluster")
                                .toString(),
                "CASSANDRA_CLUSTER_HOST", Integer.toString(firstHost),
                "CASSANDRA_CLUSTER_JMX", CassandraTestResource.envOr("CQL_TEST_CLUSTER_JMX", "17300"),
                "CASSANDRA_HEAP", CassandraTestResource.envOr("CQL_TEST_CLUSTER_HEAP", "384M"));
    }

    /** Starts every node from empty data folders, one after the other; fails if one does not answer CQL. */
    public void start() {
        run("cluster", "start", Integer.toString(size), "--wipe");
    }

    public void stop() {
        run("cluster", "stop");
    }

    /** {@code action} on node {@code i}: stop, start, kill (-9), pause (SIGSTOP), resume (SIGCONT). */
    public void node(int i, String action) {
        run("node", Integer.toString(i), action);
    }

    public String contactPoints() {
        return IntStream.range(0, size)
                .mapToObj(i -> "127.0.0." + (firstHost + i) + ":9042")
                .collect(Collectors.joining(","));
    }

    private void run(String... args) {
        int exit = CassandraTestResource.cassandraLocal(env, args);
        if (exit != 0) {
            throw new IllegalStateException("bin/cassandra-local " + String.join(" ", args) + " exited with " + exit);
        }
    }
}
