package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.cqlpatterns.testsupport.CassandraTestResource;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.junit.jupiter.api.Test;

/**
 * The test node warns of a partition written over 1 MiB (partition_size_warn_threshold, the
 * project's cassandra.yaml): far above every partition the service's tables hold in the tests, far
 * below what a partition that grows with traffic reaches in a soak. The build's log gate fails on
 * such a warning (CassandraLogGateTest); this probe's table is the one it lets pass.
 */
@QuarkusTest
class LargePartitionsTest {

    @Inject
    StoredRows rows;

    @Inject
    CassandraSettings settings;

    @Test
    void should_warn_of_a_partition_written_over_the_threshold() throws IOException {
        assumeTrue(CassandraTestResource.usesLocalNode(), "reads the project's local test node's log");
        rows.execute("CREATE TABLE IF NOT EXISTS probe_large_partition (k int, c int, v text, PRIMARY KEY (k, c))");
        int k = (int) (System.nanoTime() & 0x7FFFFFFF);
        String kilobyte = "x".repeat(1024);
        long logFrom = Files.size(CassandraTestResource.localNodeLog());
        // 1,200 rows of 1 KiB in one partition, in unlogged batches of that partition.
        for (int batch = 0; batch < 12; batch++) {
            StringBuilder cql = new StringBuilder("BEGIN UNLOGGED BATCH ");
            for (int c = batch * 100; c < batch * 100 + 100; c++) {
                cql.append("INSERT INTO probe_large_partition (k, c, v) VALUES (")
                        .append(k)
                        .append(", ")
                        .append(c)
                        .append(", '")
                        .append(kilobyte)
                        .append("'); ");
            }
            rows.execute(cql.append("APPLY BATCH").toString());
        }
        assertThat(CassandraTestResource.localNode(
                        "nodetool", "local", "flush", settings.keyspace(), "probe_large_partition"))
                .isZero();
        byte[] log = Files.readAllBytes(CassandraTestResource.localNodeLog());
        assertThat(new String(log, (int) logFrom, (int) (log.length - logFrom), StandardCharsets.UTF_8))
                .contains("Guardrail partition_size violated: Partition " + settings.keyspace()
                        + ".probe_large_partition:" + k);
    }
}
