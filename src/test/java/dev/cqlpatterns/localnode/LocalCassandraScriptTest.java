package dev.cqlpatterns.localnode;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** bin/cassandra-local refuses clearly, in one line, what it cannot do, and starts nothing then. */
class LocalCassandraScriptTest {
    private static final Path ROOT = Path.of(System.getProperty("cqlpatterns.root", "."));

    @TempDir
    Path nodeDir;

    record Result(int exit, String output) {}

    private Result run(Map<String, String> env, String... args) throws IOException, InterruptedException {
        String[] command = new String[args.length + 1];
        command[0] = ROOT.resolve("bin/cassandra-local").toString();
        System.arraycopy(args, 0, command, 1, args.length);
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().putAll(env);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), out);
    }

    @Test
    void should_refuse_a_taken_port_in_one_line_and_start_nothing() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            Result result = run(
                    Map.of(
                            "CASSANDRA_DIR",
                            nodeDir.toString(),
                            "CASSANDRA_NATIVE_PORT",
                            Integer.toString(taken.getLocalPort()),
                            "CASSANDRA_STORAGE_PORT",
                            "17901",
                            "CASSANDRA_JMX_PORT",
                            "17902"),
                    "start");
            assertThat(result.exit()).isEqualTo(1);
            assertThat(result.output().strip().lines()).hasSize(1);
            assertThat(result.output()).contains("port " + taken.getLocalPort()).contains("taken");
            assertThat(Files.exists(nodeDir.resolve("cassandra.pid"))).isFalse();
        }
    }

    @Test
    void should_report_a_stopped_node_and_explain_its_usage() throws Exception {
        Result status = run(Map.of("CASSANDRA_DIR", nodeDir.toString(), "CASSANDRA_NATIVE_PORT", "17903"), "status");
        assertThat(status.exit()).isEqualTo(3);
        assertThat(status.output()).contains("stopped");

        Result stop = run(Map.of("CASSANDRA_DIR", nodeDir.toString()), "stop");
        assertThat(stop.exit()).isZero();
        assertThat(stop.output()).contains("not running");

        Result usage = run(Map.of(), "frobnicate");
        assertThat(usage.exit()).isEqualTo(2);
        assertThat(usage.output()).contains("usage:");
    }
}
