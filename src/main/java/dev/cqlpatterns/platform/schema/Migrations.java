package dev.cqlpatterns.platform.schema;

import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import dev.cqlpatterns.platform.schema.MigrationFiles.Baseline;
import dev.cqlpatterns.platform.schema.MigrationFiles.Migration;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Applies the numbered files of {@code cql/} ({@link MigrationFiles}) in order, each once,
 * recording it in {@code schema_migrations}. Replicas that start together take turns through the
 * lease {@link MigrationLease}, and each run talks to one node ({@link MigrationRun}).
 */
@ApplicationScoped
public class Migrations {
    private static final Logger LOG = Logger.getLogger(Migrations.class);
    private static final Pattern KEYSPACE_NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9_]{0,47}");
    private static final Pattern DATACENTER_NAME = Pattern.compile("[a-zA-Z0-9_.-]+");

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    void onStart(@Observes @Priority(10) StartupEvent event) {
        if (settings.migrations().atStartup()) {
            migrate();
        }
    }

    /**
     * Brings the keyspace up to date; returns the names of the files it applied. A fresh keyspace
     * gets the baseline (cql/baseline/schema.cql), recorded as the files it covers, then the rest.
     */
    public List<String> migrate() {
        return migrate(settings.keyspace(), true);
    }

    /** Brings {@code keyspace} up to date, from the baseline when it is fresh and {@code fromBaseline}. */
    public List<String> migrate(String keyspace, boolean fromBaseline) {
        return migrate(keyspace, fromBaseline, settings.migrations().leaseTtl());
    }

    /** As {@link #migrate(String, boolean)}, holding the lease for {@code leaseTtl} at a time. */
    List<String> migrate(String keyspace, boolean fromBaseline, Duration leaseTtl) {
        if (!KEYSPACE_NAME.matcher(keyspace).matches()) {
            throw new IllegalArgumentException(
                    "cql-patterns.cassandra.keyspace is not a valid keyspace name: " + keyspace);
        }
        long began = System.nanoTime();
        MigrationRun run = new MigrationRun(session, settings.migrations());
        run.bootstrap(keyspace, replication());
        List<Migration> migrations = MigrationFiles.load();
        run.takeLease(leaseTtl);
        try {
            Map<Integer, String> applied = run.applied();
            List<String> done = new ArrayList<>();
            if (applied.isEmpty() && fromBaseline) {
                Baseline baseline = MigrationFiles.baseline(migrations);
                LOG.infof(
                        "Keyspace %s is new: applying cql/%s, the end state of %d files",
                        keyspace, MigrationFiles.BASELINE, baseline.covers().size());
                // Types, then tables, then indexes: each group's statements are independent of each
                // other, so they go at once, and the group ends when every node has them all.
                baseline.statements().stream()
                        .collect(Collectors.groupingBy(Migrations::creationOrder, TreeMap::new, Collectors.toList()))
                        .values()
                        .forEach(run::schemaChanges);
                for (Migration m : baseline.covers()) {
                    run.recordApplied(m);
                    applied.put(m.version(), m.checksum());
                    done.add(m.name());
                }
                run.renewLease();
            }
            for (Migration m : migrations) {
                String checksum = applied.get(m.version());
                if (checksum != null) {
                    if (checksum.equals(m.fileChecksum()) && !checksum.equals(m.checksum())) {
                        run.recordChecksum(m);
                    } else if (!checksum.equals(m.checksum())) {
                        throw new IllegalStateException("A statement of cql/" + m.name() + " changed after it was "
                                + "applied; migrations are immutable, add a new numbered file instead");
                    }
                    continue;
                }
                LOG.infof("Applying cql/%s to keyspace %s", m.name(), keyspace);
                for (String statement : m.statements()) {
                    run.schemaChange(statement);
                }
                run.recordApplied(m);
                run.renewLease();
                done.add(m.name());
            }
            LOG.infof(
                    "Keyspace %s is at cql/%s: %d of %d files applied in %d ms",
                    keyspace,
                    migrations.get(migrations.size() - 1).name(),
                    done.size(),
                    migrations.size(),
                    (System.nanoTime() - began) / 1_000_000);
            return done;
        } finally {
            run.releaseLease();
            if (!keyspace.equals(settings.keyspace())) {
                run.use(settings.keyspace());
            }
        }
    }

    /** When a baseline statement may run: types (0) before the tables that use them (1), tables before their indexes (2). */
    private static int creationOrder(String statement) {
        return statement.startsWith("CREATE TYPE ") ? 0 : statement.startsWith("CREATE TABLE ") ? 1 : 2;
    }

    private String replication() {
        CassandraSettings.Replication r = settings.replication();
        if ("SimpleStrategy".equals(r.strategy())) {
            return "{'class': 'SimpleStrategy', 'replication_factor': " + r.factor() + "}";
        }
        if (!"NetworkTopologyStrategy".equals(r.strategy())) {
            throw new IllegalArgumentException("cql-patterns.cassandra.replication.strategy must be SimpleStrategy or "
                    + "NetworkTopologyStrategy, not " + r.strategy());
        }
        if (r.datacenters().isEmpty()) {
            throw new IllegalArgumentException(
                    "NetworkTopologyStrategy needs cql-patterns.cassandra.replication.datacenters");
        }
        return r.datacenters().entrySet().stream()
                .peek(e -> {
                    if (!DATACENTER_NAME.matcher(e.getKey()).matches()) {
                        throw new IllegalArgumentException("not a datacenter name: " + e.getKey());
                    }
                })
                .map(e -> "'" + e.getKey() + "': " + e.getValue())
                .collect(Collectors.joining(", ", "{'class': 'NetworkTopologyStrategy', ", "}"));
    }
}
