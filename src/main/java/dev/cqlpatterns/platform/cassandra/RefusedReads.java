package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import dev.cqlpatterns.platform.errors.CassandraFailures;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import java.util.Map;
import org.jboss.logging.Logger;

/**
 * Reads that Cassandra refused for what they would have had to scan ({@link CassandraFailures#refusedRead}):
 * more tombstones than {@code tombstone_failure_threshold} ("Scanned over 100001 tombstones"), or
 * more data than {@code local_read_size_fail_threshold}. Such a read fails the same way on
 * every retry until the dead rows are purged, days later: it is the service's own defect (a table
 * or a query that lets dead rows pile up), not an outage. So it is logged at ERROR with its
 * statement (the prepared text, never the bound values), counted in {@code cql_reads_refused_total}
 * by reason (the CqlPatternsReadRefused alert), and answered 500 with its own problem type and no
 * Retry-After (platform.errors.Problems), where an unreachable database answers 503.
 */
@ApplicationScoped
public class RefusedReads {
    private static final Logger LOG = Logger.getLogger(RefusedReads.class);

    private final Map<String, Counter> counters;

    RefusedReads(MeterRegistry meters) {
        // Registered at start-up, at zero, so the alert's series exists before the first refusal.
        counters = Map.of(
                "tombstones",
                counter(meters, "tombstones"),
                "size",
                counter(meters, "size"),
                CassandraFailures.UNREPORTED,
                counter(meters, CassandraFailures.UNREPORTED));
    }

    private static Counter counter(MeterRegistry meters, String reason) {
        return Counter.builder("cql.reads.refused")
                .tag("reason", reason)
                .description("Reads Cassandra refused for what they would scan (tombstones, size, or unreported in "
                        + "protocol V4): a defect of the service")
                .register(meters);
    }

    void register(@Observes StartupEvent event) {
        // Creating the bean registers the counters.
    }

    /** Logs and counts {@code failure} if it is a refused read; {@code cql} names it when the failure does not. */
    void record(String cql, Throwable failure) {
        CassandraFailures.refusedRead(failure).ifPresent(reason -> {
            LOG.errorf(
                    "Cassandra refused a read for the %s it would scan, and will refuse it again on every "
                            + "retry until the dead rows are purged; the table's design is at fault: %s",
                    reason.equals(CassandraFailures.UNREPORTED)
                            ? "tombstones or size (see the replicas' logs)"
                            : reason,
                    statement(cql, failure));
            counters.get(reason).increment();
        });
    }

    private static String statement(String cql, Throwable failure) {
        return CassandraFailures.readFailure(failure)
                .map(ReadFailureException::getExecutionInfo)
                .filter(info -> info != null && info.getRequest() instanceof Statement<?>)
                .map(info -> Cql.cqlOf((Statement<?>) info.getRequest()))
                .orElse(cql == null ? "(statement text not known)" : cql);
    }
}
