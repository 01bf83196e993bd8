package dev.cqlpatterns.testsupport;

import io.quarkus.test.common.QuarkusTestResourceLifecycleManager;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.cassandra.CassandraContainer;

/**
 * Chooses the Cassandra the tests run against, in this order:
 * <ol>
 * <li>contact points given in the environment ({@code CQL_CONTACT_POINTS}, with
 * {@code CQL_LOCAL_DATACENTER});</li>
 * <li>a Testcontainers Cassandra, when a Docker engine answers;</li>
 * <li>otherwise the project's own local node ({@code bin/cassandra-local}), started on test ports
 * with a fresh data folder and stopped when the test JVM exits.</li>
 * </ol>
 * It also gives the service a test JWT verification key (see {@link Tokens}).
 */
public class CassandraTestResource implements QuarkusTestResourceLifecycleManager {
    private static final Object LOCK = new Object();
    private static Map<String, String> connection;
    private static CassandraContainer container;
    private static Map<String, String> localNodeEnv;

    @Override
    public Map<String, String> start() {
        Map<String, String> config = new HashMap<>(cassandra());
        config.put("mp.jwt.verify.publickey.location", Tokens.publicKeyFile().toString());
        config.put("mp.jwt.verify.issuer", Tokens.ISSUER);
        // Each test application makes its own keyspace; production applies it as a separate step.
        config.put("cql-patterns.cassandra.migrations.at-startup", "true");
        return config;
    }

    @Override
    public void stop() {
        // The node outlives one Quarkus application: test classes with other profiles restart
        // the application, not Cassandra. It is stopped when the JVM exits.
    }

    private static Map<String, String> cassandra() {
        synchronized (LOCK) {
            if (connection == null) {
                connection = connect();
            }
            return connection;
        }
    }

    private static Map<String, String> connect() {
        String contactPoints = System.getenv("CQL_CONTACT_POINTS");
        if (contactPoints != null && !contactPoints.isBlank()) {
            return Map.of(
                    "quarkus.cassandra.contact-points",
                    contactPoints,
                    "quarkus.cassandra.local-datacenter",
                    envOr("CQL_LOCAL_DATACENTER", "datacenter1"));
        }
        if (dockerAnswers()) {
            container = new CassandraContainer(envOr("CQL_TEST_IMAGE", "cassandra:5.0"));
            container.start();
            Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
            InetSocketAddress at = container.getContactPoint();
            return Map.of(
                    "quarkus.cassandra.contact-points",
                    at.getHostString() + ":" + at.getPort(),
                    "quarkus.cassandra.local-datacenter",
                    container.getLocalDatacenter());
        }
        return startLocalNode();
    }

    private static boolean dockerAnswers() {
        boolean maybe = System.getenv("DOCKER_HOST") != null
                || Files.exists(Path.of("/var/run/docker.sock"))
                || Files.exists(Path.of(System.getProperty("user.home"), ".docker/run/docker.sock"));
        try {
            return maybe && DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            return false;
        }
    }

    /** True when the tests run on the project's own local node, which a test may stop and start. */
    public static boolean usesLocalNode() {
        synchronized (LOCK) {
            return connection != null && container == null && System.getenv("CQL_CONTACT_POINTS") == null;
        }
    }

    /** The environment bin/cassandra-local runs the test node with. */
    public static Map<String, String> localNodeEnv() {
        synchronized (LOCK) {
            if (localNodeEnv == null) {
                Map<String, String> env = new HashMap<>();
                env.put("CASSANDRA_DIR", root().resolve(".cassandra/test-node").toString());
                env.put("CASSANDRA_NATIVE_PORT", envOr("CQL_TEST_NATIVE_PORT", "19042"));
                env.put("CASSANDRA_STORAGE_PORT", envOr("CQL_TEST_STORAGE_PORT", "17000"));
                env.put("CASSANDRA_JMX_PORT", envOr("CQL_TEST_JMX_PORT", "17199"));
                env.put("CASSANDRA_HEAP", envOr("CQL_TEST_HEAP", "512M"));
                // its data goes at its next first start, and nothing kills it with -9
                env.put("CASSANDRA_UNSAFE_SYSTEM", "true");
                localNodeEnv = Map.copyOf(env);
            }
            return localNodeEnv;
        }
    }

    private static Map<String, String> startLocalNode() {
        Map<String, String> env = localNodeEnv();
        boolean running = localNode("status") == 0;
        if (!running) {
            if (localNode("start", "--wipe") != 0) {
                throw new IllegalStateException(
                        "bin/cassandra-local could not start the test node; see " + env.get("CASSANDRA_DIR") + "/logs");
            }
            Runtime.getRuntime().addShutdownHook(new Thread(() -> localNode("stop")));
        }
        return Map.of(
                "quarkus.cassandra.contact-points",
                "127.0.0.1:" + env.get("CASSANDRA_NATIVE_PORT"),
                "quarkus.cassandra.local-datacenter",
                "datacenter1");
    }

    /** The test node's system.log (meaningful when {@link #usesLocalNode}). */
    public static Path localNodeLog() {
        return Path.of(localNodeEnv().get("CASSANDRA_DIR"), "logs", "system.log");
    }

    /** Runs bin/cassandra-local with the test node's environment; returns its exit code. */
    public static int localNode(String... args) {
        return cassandraLocal(localNodeEnv(), args);
    }

    /** Runs bin/cassandra-local with {@code env}; returns its exit code. */
    static int cassandraLocal(Map<String, String> env, String... args) {
        try {
            String[] command = new String[args.length + 1];
            command[0] = root().resolve("bin/cassandra-local").toString();
            System.arraycopy(args, 0, command, 1, args.length);
            ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
            pb.environment().putAll(env);
            Process process = pb.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("bin/cassandra-local " + String.join(" ", args) + " hung");
            }
            System.out.print(output);
            return process.exitValue();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run bin/cassandra-local", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Path root() {
        return Path.of(System.getProperty("cqlpatterns.root", System.getProperty("user.dir")));
    }

    static String envOr(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
