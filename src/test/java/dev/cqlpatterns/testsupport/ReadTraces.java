package dev.cqlpatterns.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import java.rmi.registry.LocateRegistry;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.Attribute;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.rmi.RMIConnector;
import javax.management.remote.rmi.RMIServer;
import org.junit.jupiter.api.Assumptions;

/**
 * What Cassandra itself says a read scanned: runs an action (HTTP requests to the service) with the
 * test node tracing every statement (its trace probability set to 1 over JMX, as {@code nodetool
 * settraceprobability} does), then reads the node's "Read N live rows and M tombstone cells" events
 * of each traced statement from system_traces. Tombstone cells count deleted rows, cells, range
 * tombstone bounds and expired cells, as the node's tombstone_warn_threshold does.
 *
 * <p>Needs the project's own local node (the JMX port is the test node's); elsewhere the test is
 * skipped.
 */
public final class ReadTraces {
    private static final Pattern READ = Pattern.compile("Read (\\d+) live rows and (\\d+) tombstone cells");
    private static final Duration SETTLE = Duration.ofSeconds(20);

    /** One traced statement: its CQL, and what its reads scanned on the replicas. */
    public record Scan(String query, long liveRows, long tombstoneCells) {}

    private ReadTraces() {}

    /** The statements {@code action} made the node run, with what each read scanned. */
    public static List<Scan> during(StoredRows stored, Runnable action) {
        Assumptions.assumeTrue(
                CassandraTestResource.usesLocalNode(), "reads traces of the project's local test node only");
        Instant from = Instant.now().minusMillis(50);
        traceProbability(1.0);
        try {
            action.run();
        } finally {
            traceProbability(0.0);
        }
        Instant to = Instant.now().plusMillis(50);
        // The node writes traces in the background: read until every session has ended and two reads agree.
        Instant deadline = Instant.now().plus(SETTLE);
        List<Scan> previous = null;
        while (true) {
            List<Scan> scans = read(stored, from, to);
            if (scans != null && scans.equals(previous)) {
                return scans;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("the test node's traces did not settle within " + SETTLE);
            }
            previous = scans;
            try {
                Thread.sleep(300);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** The scans of the statements whose CQL contains {@code table}. */
    public static List<Scan> of(List<Scan> scans, String table) {
        return scans.stream().filter(s -> s.query().contains(table)).toList();
    }

    /** Tombstone cells scanned by all of {@code scans}. */
    public static long tombstones(List<Scan> scans) {
        return scans.stream().mapToLong(Scan::tombstoneCells).sum();
    }

    /**
     * The tombstone cells that the reads of the generational set {@code set} (the table of that name) scanned
     * while {@code read} ran, once any move of the set's {@code key} and the drop after it have ended;
     * {@code read} must make such a read. Prints them and the generation read, as "{@code request} after
     * {@code after}".
     */
    public static long setTombstones(
            StoredRows stored, String set, String key, String request, String after, Runnable read) {
        SetGenerations.quiet(stored, set, key);
        List<Scan> list = of(during(stored, read), set);
        assertThat(list).as("traced reads of " + request).isNotEmpty();
        long cells = tombstones(list);
        System.out.printf(
                "%s after %s: %d tombstone cells (generation %d)%n",
                request, after, cells, SetGenerations.current(stored, set, key));
        return cells;
    }

    /** The tombstone cells that {@code SELECT count(*) FROM table WHERE where} scans on the node. */
    public static long countTombstones(StoredRows stored, String table, String where, Object... values) {
        String count = "SELECT count(*) FROM " + table + " WHERE " + where;
        List<Scan> scans = of(during(stored, () -> stored.execute(count, values)), table);
        assertThat(scans).as("traced reads of " + count).isNotEmpty();
        return tombstones(scans);
    }

    /** The traced sessions that started between {@code from} and {@code to}; null while one has not ended. */
    private static List<Scan> read(StoredRows stored, Instant from, Instant to) {
        List<Scan> scans = new ArrayList<>();
        for (Row session :
                stored.execute("SELECT session_id, started_at, duration, parameters FROM system_traces.sessions")) {
            Instant started = session.getInstant("started_at");
            if (started == null || started.isBefore(from) || started.isAfter(to)) {
                continue;
            }
            if (session.isNull("duration")) {
                return null;
            }
            String query =
                    session.getMap("parameters", String.class, String.class).getOrDefault("query", "");
            UUID id = session.getUuid("session_id");
            long live = 0;
            long tombstones = 0;
            for (Row event : stored.execute("SELECT activity FROM system_traces.events WHERE session_id = ?", id)) {
                Matcher m = READ.matcher(event.getString("activity"));
                if (m.find()) {
                    live += Long.parseLong(m.group(1));
                    tombstones += Long.parseLong(m.group(2));
                }
            }
            scans.add(new Scan(query, live, tombstones));
        }
        scans.sort(Comparator.comparing(Scan::query).thenComparingLong(Scan::tombstoneCells));
        return scans;
    }

    private static void traceProbability(double probability) {
        String port = CassandraTestResource.localNodeEnv().get("CASSANDRA_JMX_PORT");
        // Straight from the RMI registry: the JMX service URL would go through JNDI, which Quarkus turns off.
        try (JMXConnector jmx = new RMIConnector(
                (RMIServer) LocateRegistry.getRegistry("127.0.0.1", Integer.parseInt(port))
                        .lookup("jmxrmi"),
                null)) {
            jmx.connect();
            jmx.getMBeanServerConnection()
                    .setAttribute(
                            new ObjectName("org.apache.cassandra.db:type=StorageService"),
                            new Attribute("TraceProbability", probability));
        } catch (Exception e) {
            throw new IllegalStateException("cannot set the test node's trace probability over JMX on port " + port, e);
        }
    }
}
