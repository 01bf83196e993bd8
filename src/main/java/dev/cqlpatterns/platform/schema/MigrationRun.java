package dev.cqlpatterns.platform.schema;

import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import dev.cqlpatterns.platform.scheduling.ClusterLease;
import dev.cqlpatterns.platform.schema.MigrationFiles.Migration;
import io.smallrye.mutiny.Uni;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One run of the migrator, on one keyspace: every statement goes to one node, and each schema
 * change is followed by a wait until every node that is up reports that node's schema version.
 * The driver's own wait after a schema change is not enough on a cluster: it compares the versions
 * its control node knows, and right after a change (before gossip carries it) they can all still
 * agree on the old one. The next CREATE TABLE then reached a node that did not know the new
 * keyspace yet.
 *
 * <p>The run blocks its caller's thread (start-up's or a command's, never an event loop) and keeps
 * its {@link MigrationLease} before each statement and on each poll of its waits.
 */
final class MigrationRun {
    /** How long Cassandra waits before it pulls a version it was told of ({@code cassandra.migration_delay_ms}). */
    private static final Duration PULL_DELAY = Duration.ofSeconds(60);

    private static final Duration STATEMENT_TIMEOUT = Duration.ofSeconds(30);

    private final QuarkusCqlSession session;
    private final CassandraSettings.Migrations settings;
    /** The node every statement of this run goes to; null to let the driver pick. */
    private final Node coordinator;
    /** True once every node has schema_migrations: a lagging node may then be nudged (see awaitAgreement). */
    private boolean nudgeable;
    /** This run's hold on the lease, from {@link #takeLease} on. */
    private MigrationLease lease;

    MigrationRun(QuarkusCqlSession session, CassandraSettings.Migrations settings) {
        this.session = session;
        this.settings = settings;
        this.coordinator = coordinator(session);
    }

    /**
     * Creates the keyspace, the migrations table and the lease table, before any lease can exist:
     * they carry fixed table ids, so two replicas creating them at once create the same table.
     */
    void bootstrap(String keyspace, String replication) {
        run("CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = " + replication);
        awaitAgreement();
        use(keyspace);
        schemaChange("CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, name text, checksum text, "
                + "applied_at timestamp) WITH ID = " + fixedId(keyspace, "schema_migrations"));
        nudgeable = true;
        // Also the table behind the scheduler's cluster-wide leases.
        schemaChange("CREATE TABLE IF NOT EXISTS leases (name text PRIMARY KEY, owner text, acquired_at timestamp) "
                + "WITH ID = " + fixedId(keyspace, "leases"));
    }

    void takeLease(Duration ttl) {
        ClusterLease statements = new ClusterLease(
                (query, values) ->
                        Uni.createFrom().completionStage(() -> session.executeAsync(statement(query.cql(), values))),
                UUID.randomUUID().toString());
        lease = MigrationLease.acquire(statements, ttl, settings.waitAtMost(), System::nanoTime);
    }

    void releaseLease() {
        if (lease != null) {
            lease.release();
            lease = null;
        }
    }

    /** Renews the lease now, whatever time is left of it: after a file, before the next one. */
    void renewLease() {
        lease.renew();
    }

    /**
     * Makes {@code keyspace} the session's, for the statements of cql/, which name their tables
     * only: the service speaks protocol V4 (application.conf says why), which has no keyspace per
     * statement. Every statement outside cql/ names its keyspace, so none depends on it.
     */
    void use(String keyspace) {
        run("USE " + keyspace);
    }

    /** The version and checksum of every file applied so far. */
    Map<Integer, String> applied() {
        Map<Integer, String> applied = new HashMap<>();
        for (Row row : run("SELECT version, checksum FROM schema_migrations")) {
            applied.put(row.getInt("version"), row.getString("checksum"));
        }
        return applied;
    }

    void recordApplied(Migration m) {
        run(
                "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                m.version(),
                m.name(),
                m.checksum(),
                Instant.now());
    }

    /** Replaces the whole-file checksum an earlier release recorded with the statements' one. */
    void recordChecksum(Migration m) {
        run("UPDATE schema_migrations SET checksum = ? WHERE version = ?", m.checksum(), m.version());
    }

    /**
     * One schema change, then the wait until every node has it: the statements after it (the next
     * CREATE, the lease's Paxos round, the INSERT into schema_migrations) reach other replicas too,
     * and one that does not know a table yet fails them.
     */
    void schemaChange(String cql) {
        run(cql);
        awaitAgreement();
    }

    /**
     * Independent schema changes at once, all to the one coordinator (which applies them in turn),
     * then the wait until every node has them all. The lease is kept while they run.
     */
    void schemaChanges(List<String> cqls) {
        keepLease();
        CompletableFuture<Void> all = CompletableFuture.allOf(cqls.stream()
                .map(cql -> session.executeAsync(statement(cql)).toCompletableFuture())
                .toArray(CompletableFuture[]::new));
        while (true) {
            try {
                all.get(100, TimeUnit.MILLISECONDS);
                break;
            } catch (TimeoutException e) {
                keepLease();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException r ? r : new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while changing the schema", e);
            }
        }
        awaitAgreement();
    }

    private void keepLease() {
        if (lease != null) {
            lease.keep();
        }
    }

    private ResultSet run(String cql, Object... values) {
        keepLease();
        return session.execute(statement(cql, values));
    }

    private SimpleStatement statement(String cql, Object... values) {
        return SimpleStatement.newInstance(cql, values).setNode(coordinator).setTimeout(STATEMENT_TIMEOUT);
    }

    private static UUID fixedId(String keyspace, String table) {
        return UUID.nameUUIDFromBytes((keyspace + "." + table).getBytes(StandardCharsets.UTF_8));
    }

    /** One that is up, in the local datacenter when one is configured; null to let the driver pick. */
    private static Node coordinator(QuarkusCqlSession session) {
        String localDc = session.getContext()
                .getConfig()
                .getDefaultProfile()
                .getString(DefaultDriverOption.LOAD_BALANCING_LOCAL_DATACENTER, null);
        return session.getMetadata().getNodes().values().stream()
                .filter(n -> n.getState() == NodeState.UP)
                .filter(n -> localDc == null || localDc.equals(n.getDatacenter()))
                .findFirst()
                .orElse(null);
    }

    /**
     * Waits until every node that is up has the coordinator's schema ({@link SchemaAgreement}),
     * keeping the lease meanwhile. A lagging node is nudged by a new comment on schema_migrations,
     * once every node has that table.
     */
    private void awaitAgreement() {
        if (coordinator == null) {
            return;
        }
        SchemaAgreement.await(
                new SchemaAgreement.Cluster() {
                    @Override
                    public UUID coordinatorVersion() {
                        return schemaVersion(coordinator);
                    }

                    @Override
                    public String lagging(UUID version) {
                        for (Node node : session.getMetadata().getNodes().values()) {
                            if (node.getState() == NodeState.UP && !version.equals(schemaVersion(node))) {
                                return node.getEndPoint().toString();
                            }
                        }
                        return null;
                    }

                    @Override
                    public boolean announce(Instant now) {
                        if (nudgeable) {
                            run("ALTER TABLE schema_migrations WITH comment = 'Applied files of cql/; agreement sought "
                                    + now + "'");
                        }
                        return nudgeable;
                    }

                    @Override
                    public void stillWaiting() {
                        keepLease();
                    }
                },
                settings.agreementWait(),
                settings.agreementNudge(),
                PULL_DELAY,
                settings.leaseTtl().dividedBy(3),
                coordinator.getEndPoint().toString());
    }

    private UUID schemaVersion(Node node) {
        keepLease();
        return session.execute(SimpleStatement.newInstance("SELECT schema_version FROM system.local")
                        .setNode(node)
                        .setTimeout(Duration.ofSeconds(10)))
                .one()
                .getUuid(0);
    }
}
