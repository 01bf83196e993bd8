package dev.cqlpatterns.platform.cassandra;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.not;

import dev.cqlpatterns.testsupport.Metrics;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * A read Cassandra refuses for the tombstones it would scan (over tombstone_failure_threshold,
 * 100,000 on the test node) is the service's own defect, not an outage: 500 with its own problem
 * type and no Retry-After, an ERROR naming the statement, and cql_reads_refused_total counted (reason
 * "unreported": protocol V4 carries no reasons, so the ERROR says tombstones or size). The partition
 * is built on a probe table of its own, so no feature's table is left with dead rows;
 * the node logs "Scanned over 100001 tombstones" for it, about probe_dead_rows only.
 */
@QuarkusTest
class RefusedReadsTest {
    private static final Pattern REFUSED =
            Pattern.compile("cql_reads_refused_total\\{[^}]*reason=\"unreported\"[^}]*\\} ([0-9.]+)");

    @Inject
    StoredRows rows;

    @Test
    void should_answer_500_without_retry_after_and_log_the_statement_when_a_read_is_refused_for_its_tombstones() {
        rows.execute("CREATE TABLE IF NOT EXISTS probe_dead_rows (k int, c int, PRIMARY KEY (k, c))");
        int k = (int) (System.nanoTime() & 0x7FFFFFFF);
        // 101 statements of 1,000 row deletions each: 101,000 row tombstones in one partition.
        for (int batch = 0; batch < 101; batch++) {
            List<Integer> cs =
                    IntStream.range(batch * 1000, batch * 1000 + 1000).boxed().toList();
            rows.execute("DELETE FROM probe_dead_rows WHERE k = ? AND c IN ?", k, cs);
        }
        double before = refusedSoFar();
        List<String> errors = new ArrayList<>();
        Handler capture = new Handler() {
            @Override
            public void publish(LogRecord record) {
                if (record.getLevel().intValue() >= Level.SEVERE.intValue()) {
                    synchronized (errors) {
                        errors.add(String.valueOf(record.getMessage()) + " "
                                + java.util.Arrays.toString(record.getParameters()));
                    }
                }
            }

            @Override
            public void flush() {}

            @Override
            public void close() {}
        };
        LogManager.getLogManager().getLogger("").addHandler(capture);
        try {
            Response answer = given().when().get("/test-probe/dead-rows/{k}", k);
            problem(answer, 500)
                    .body("type", equalTo("urn:cql-patterns:problem:read-refused"))
                    .body("detail", containsString("retrying will not help"))
                    .body("detail", not(containsString("probe_dead_rows")));
            assertThat(answer.getHeader("Retry-After"))
                    .as("Retry-After on a read that fails on every retry")
                    .isNull();
        } finally {
            LogManager.getLogManager().getLogger("").removeHandler(capture);
        }
        synchronized (errors) {
            assertThat(errors)
                    .anySatisfy(line -> assertThat(line)
                            .contains("refused a read")
                            .contains("tombstones")
                            .contains("SELECT c FROM")
                            .contains("probe_dead_rows"));
        }
        assertThat(refusedSoFar()).isEqualTo(before + 1);
    }

    private static double refusedSoFar() {
        String metrics = Metrics.exposition();
        Matcher m = REFUSED.matcher(metrics);
        assertThat(m.find())
                .as("cql_reads_refused_total{reason=\"unreported\"} is exported from start-up")
                .isTrue();
        return Double.parseDouble(m.group(1));
    }
}
