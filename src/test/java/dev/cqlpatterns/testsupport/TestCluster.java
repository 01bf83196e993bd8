package dev.cqlpatterns.testsupport;

import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A Cassandra cluster of several nodes that a test starts itself with {@code bin/cassandra-local
 * cluster}: its own folder and its own loopback addresses (127.0.0.21, .22, ... by default,
 * {@code CQL_TEST_CLUSTER_HOST}) and JMX ports, so it runs beside a developer's cluster and the
 * single test node. Nodes are numbered from 1; node 1 is the seed. {@link #inNamespaces} puts each
 * node in its own network namespace instead (10.213.21.21, .22, ...), where {@link #net} can cut
 * and slow its links.
 */
public final class TestCluster {
    private final int size;
    private final Map<String, String> env;
    private final int firstHost;
    private final String prefix;

    public TestCluster(int size) {
        this(size, "test-cluster", Map.of());
    }

    private TestCluster(int size, String folder, Map<String, String> more) {
        this.size = size;
        this.firstHost = Integer.parseInt(CassandraTestResource.envOr("CQL_TEST_CLUSTER_HOST", "21"));
        Map<String, String> all = new java.util.HashMap<>(more);
        all.put(
                "CASSANDRA_CLUSTER_DIR",
                CassandraTestResource.root().resolve(".cassandra/" + folder).toString());
        all.put("CASSANDRA_CLUSTER_HOST", Integer.toString(firstHost));
        all.put("CASSANDRA_CLUSTER_JMX", CassandraTestResource.envOr("CQL_TEST_CLUSTER_JMX", "17300"));
        all.put("CASSANDRA_HEAP", CassandraTestResource.envOr("CQL_TEST_CLUSTER_HEAP", "384M"));
        this.env = Map.copyOf(all);
        this.prefix = more.isEmpty() ? "127.0.0." : "10.213." + firstHost + ".";
    }

    /** A cluster whose nodes each live in their own network namespace (bin/cassandra-local, netns mode; root only). */
    public static TestCluster inNamespaces(int size) {
        return new TestCluster(size, "test-cluster-netns", Map.of("CASSANDRA_CLUSTER_NET", "netns"));
    }

    /** {@code bin/cassandra-local net ARGS}: a fault on a node's links ({@code 3 isolate}, {@code 3 slow 200 5}) or {@code heal}. */
    public void net(String... args) {
        String[] all = new String[args.length + 1];
        all[0] = "net";
        System.arraycopy(args, 0, all, 1, args.length);
        run(all);
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

    /** Starts node {@code i} from empty data in the place of node {@code dead}, which must be down; returns once it serves. */
    public void replace(int i, int dead) {
        run("node", Integer.toString(i), "replace", address(dead));
    }

    /** {@code nodetool ARGS} against node {@code i} (e.g. {@code decommission}, which returns once streamed). */
    public void nodetool(int i, String... args) {
        String[] all = new String[args.length + 2];
        all[0] = "nodetool";
        all[1] = Integer.toString(i);
        System.arraycopy(args, 0, all, 2, args.length);
        run(all);
    }

    private String address(int i) {
        return prefix + (firstHost + i - 1);
    }

    public String contactPoints() {
        return IntStream.range(0, size).mapToObj(i -> address(i + 1) + ":9042").collect(Collectors.joining(","));
    }

    private void run(String... args) {
        int exit = CassandraTestResource.cassandraLocal(env, args);
        if (exit != 0) {
            throw new IllegalStateException("bin/cassandra-local " + String.join(" ", args) + " exited with " + exit);
        }
    }
}
