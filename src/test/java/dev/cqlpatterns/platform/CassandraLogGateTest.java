package dev.cqlpatterns.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.PackagedService;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/cassandra-log-gate, the build's last word on what the test nodes logged, on logs made for it:
 * it fails on a large partition, a read over the tombstone threshold or a protocol exception of any
 * table but the probes that tests build to trip them on purpose, and passes a log without them.
 */
class CassandraLogGateTest {
    private static final String TIME = "2026-11-28 02:13:34,830";

    @TempDir
    Path root;

    @Test
    void should_fail_on_a_large_partition_of_a_table_and_pass_the_probe() throws Exception {
        assertThat(check("WARN  [CompactionExecutor:1] " + TIME + " NoSpamLogger.java:107 - Guardrail partition_size "
                        + "violated: Partition cql_patterns_test.inbox_by_user:alice on sstable /data/nb-2-big-Data.db "
                        + "has size 2541805, this exceeds the warning threshold of 1 MiB."))
                .startsWith("1 ")
                .contains("inbox_by_user:alice");
        assertThat(check("WARN  [CompactionExecutor:1] " + TIME + " NoSpamLogger.java:107 - Guardrail partition_size "
                        + "violated: Partition cql_patterns_test.probe_large_partition:7 on sstable "
                        + "/data/nb-2-big-Data.db has size 2541805, this exceeds the warning threshold of 1 MiB."))
                .startsWith("0 ");
    }

    @Test
    void should_fail_on_dead_cells_over_the_threshold_and_on_a_protocol_exception() throws Exception {
        assertThat(
                        check(
                                "WARN  [ReadStage-1] " + TIME + " ReadCommand.java:644 - Read 42 live rows and 2047 "
                                        + "tombstone cells for query SELECT * FROM cql_patterns_test.inbox_by_day WHERE username = 'a'"))
                .startsWith("1 ");
        assertThat(check("WARN  [epollEventLoopGroup-5-2] " + TIME + " NoSpamLogger.java:107 - Protocol exception "
                        + "with client networking: org.apache.cassandra.transport.ProtocolException: Invalid value for "
                        + "the paging state"))
                .startsWith("1 ");
        assertThat(check("INFO  [main] " + TIME + " StorageService.java:1 - Node is ready"))
                .startsWith("0 ");
    }

    /** The gate's exit code and output on a test node whose log holds {@code line}, after the build's mark. */
    private String check(String line) throws IOException, InterruptedException {
        Path logs = Files.createDirectories(root.resolve(".cassandra/test-node/logs"));
        Files.writeString(logs.resolve("system.log"), line + "\n");
        Files.createDirectories(root.resolve("target"));
        Files.writeString(root.resolve("target/cassandra-log-gate.since"), "2026-11-28 00:00:00\n");
        ProcessBuilder gate = new ProcessBuilder(
                        PackagedService.ROOT.resolve("bin/cassandra-log-gate").toString(), "check")
                .redirectErrorStream(true);
        gate.environment().put("CASSANDRA_LOG_GATE_ROOT", root.toString());
        Process process = gate.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return process.waitFor() + " " + output;
    }
}
