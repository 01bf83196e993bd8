package dev.cqlpatterns.platform.schema;

import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.ResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import io.quarkus.runtime.StartupEvent;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jboss.logging.Logger;

/**
 * Applies the numbered files of {@code cql/} in order, each once, recording it in
 * {@code schema_migrations}. Replicas that start together take turns through a lease in
 * Cassandra (a lightweight transaction with a TTL): concurrent DDL from two clients is how
 * Cassandra ends up with schema disagreement, so only the lease holder runs it.
 *
 * <p>The keyspace, the migrations table and the lease table are created before any lease can
 * exist, so they carry fixed table ids: two replicas creating them at once create the same table.
 *
 * <p>Every statement of a run goes to one node, and each schema change is followed by a wait until
 * every node that is up reports that node's schema version. The driver's own wait after a schema change is not enough on
 * a cluster: it compares the versions its control node knows, and right after a change (before
 * gossip carries it) they can all still agree on the old one. The next CREATE TABLE then reached a
 * node that did not know the new keyspace yet.
 */
@ApplicationScoped
public class Migrations {
    private static final Logger LOG = Logger.getLogger(Migrations.class);
    static final String INDEX = "cql/INDEX";
    private static final Pattern FILE_NAME = Pattern.compile("(\\d{3})_[a-z0-9_]+\\.cql");
    private static final Pattern KEYSPACE_NAME = Pattern.compile("[a-zA-Z][a-zA-Z0-9_]{0,47}");
    private static final Pattern DATACENTER_NAME = Pattern.compile("[a-zA-Z0-9_.-]+");
    private static final String LEASE = "schema-migrations";
    /** How long Cassandra waits before it pulls a version it was told of ({@code cassandra.migration_delay_ms}). */
    private static final Duration PULL_DELAY = Duration.ofSeconds(60);

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    /** The node every statement of the current run goes to (see the class comment). */
    private volatile Node coordinator;
    /** True once every node has schema_migrations: a lagging node may then be nudged (see awaitAgreement). */
    private volatile boolean nudgeable;
    /** This run's claim on the lease while it holds it, so that long waits renew it; null otherwise. */
    private volatile String leaseOwner;

    /**
     * One file of cql/, split into statements. {@code checksum} covers the statements only, with
     * comments dropped and white space folded, so a comment can be fixed in an applied file while
     * a changed statement is still refused; {@code fileChecksum} is what releases before that
     * recorded (the whole file), accepted once and then replaced.
     */
    public record Migration(int version, String name, String checksum, String fileChecksum, List<String> statements) {}

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
        if (!KEYSPACE_NAME.matcher(keyspace).matches()) {
            throw new IllegalArgumentException(
                    "cql-patterns.cassandra.keyspace is not a valid keyspace name: " + keyspace);
        }
        long began = System.nanoTime();
        coordinator = coordinator();
        nudgeable = false;
        bootstrap(keyspace);
        List<Migration> migrations = load();
        String owner = UUID.randomUUID().toString();
        acquireLease(owner);
        leaseOwner = owner;
        try {
            Map<Integer, String> applied = applied();
            List<String> done = new ArrayList<>();
            if (applied.isEmpty() && fromBaseline) {
                Baseline baseline = baseline(migrations);
                LOG.infof(
                        "Keyspace %s is new: applying cql/%s, the end state of %d files",
                        keyspace, BASELINE, baseline.covers().size());
                // Types, then tables, then indexes: each group's statements are independent of each
                // other, so they go at once, and the group ends when every node has them all.
                baseline.statements().stream()
                        .collect(Collectors.groupingBy(Migrations::creationOrder, TreeMap::new, Collectors.toList()))
                        .values()
                        .forEach(this::schemaChanges);
                for (Migration m : baseline.covers()) {
                    recordApplied(m);
                    applied.put(m.version(), m.checksum());
                    done.add(m.name());
                }
                renewLease(owner);
            }
            for (Migration m : migrations) {
                String checksum = applied.get(m.version());
                if (checksum != null) {
                    if (checksum.equals(m.fileChecksum()) && !checksum.equals(m.checksum())) {
                        run("UPDATE schema_migrations SET checksum = ? WHERE version = ?", m.checksum(), m.version());
                    } else if (!checksum.equals(m.checksum())) {
                        throw new IllegalStateException("A statement of cql/" + m.name() + " changed after it was "
                                + "applied; migrations are immutable, add a new numbered file instead");
                    }
                    continue;
                }
                LOG.infof("Applying cql/%s to keyspace %s", m.name(), keyspace);
                for (String statement : m.statements()) {
                    schemaChange(statement);
                }
                recordApplied(m);
                renewLease(owner);
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
            leaseOwner = null;
            run("DELETE FROM leases WHERE name = ? IF owner = ?", LEASE, owner);
            if (!keyspace.equals(settings.keyspace())) {
                use(settings.keyspace());
            }
        }
    }

    /**
     * Makes {@code keyspace} the session's, for the statements of cql/, which name their tables
     * only: the service speaks protocol V4 (application.conf says why), which has no keyspace per
     * statement. Every statement outside cql/ names its keyspace, so none depends on it.
     */
    private void use(String keyspace) {
        session.execute(SimpleStatement.newInstance("USE " + keyspace)
                .setNode(coordinator)
                .setTimeout(Duration.ofSeconds(30)));
    }

    private void bootstrap(String keyspace) {
        session.execute(SimpleStatement.newInstance(
                        "CREATE KEYSPACE IF NOT EXISTS " + keyspace + " WITH replication = " + replication())
                .setNode(coordinator)
                .setTimeout(Duration.ofSeconds(30)));
        awaitAgreement();
        use(keyspace);
        schemaChange("CREATE TABLE IF NOT EXISTS schema_migrations (version int PRIMARY KEY, name text, checksum text, "
                + "applied_at timestamp) WITH ID = " + fixedId(keyspace, "schema_migrations"));
        nudgeable = true;
        // Also the table behind the scheduler's cluster-wide leases.
        schemaChange("CREATE TABLE IF NOT EXISTS leases (name text PRIMARY KEY, owner text, acquired_at timestamp) "
                + "WITH ID = " + fixedId(keyspace, "leases"));
    }

    /**
     * One schema change, then the wait until every node has it: the statements after it (the next
     * CREATE, the lease's Paxos round, the INSERT into schema_migrations) reach other replicas too,
     * and one that does not know a table yet fails them.
     */
    private void recordApplied(Migration m) {
        run(
                "INSERT INTO schema_migrations (version, name, checksum, applied_at) VALUES (?, ?, ?, ?)",
                m.version(),
                m.name(),
                m.checksum(),
                Instant.now());
    }

    /** When a baseline statement may run: types (0) before the tables that use them (1), tables before their indexes (2). */
    private static int creationOrder(String statement) {
        return statement.startsWith("CREATE TYPE ") ? 0 : statement.startsWith("CREATE TABLE ") ? 1 : 2;
    }

    private void schemaChange(String cql) {
        run(cql);
        awaitAgreement();
    }

    /**
     * Independent schema changes at once, all to the one coordinator (which applies them in turn),
     * then the wait until every node has them all.
     */
    private void schemaChanges(List<String> cqls) {
        CompletableFuture.allOf(cqls.stream()
                        .map(cql -> session.executeAsync(statement(cql)).toCompletableFuture())
                        .toArray(CompletableFuture[]::new))
                .join();
        awaitAgreement();
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

    private static UUID fixedId(String keyspace, String table) {
        return UUID.nameUUIDFromBytes((keyspace + "." + table).getBytes(StandardCharsets.UTF_8));
    }

    private void acquireLease(String owner) {
        long ttl = settings.migrations().leaseTtl().toSeconds();
        Instant deadline = Instant.now().plus(settings.migrations().waitAtMost());
        while (true) {
            ResultSet rs = run(
                    "INSERT INTO leases (name, owner, acquired_at) VALUES (?, ?, ?) IF NOT EXISTS USING TTL ?",
                    LEASE,
                    owner,
                    Instant.now(),
                    (int) ttl);
            if (rs.wasApplied()) {
                return;
            }
            if (Instant.now().isAfter(deadline)) {
                throw new IllegalStateException("another replica held the schema migration lease for longer than "
                        + settings.migrations().waitAtMost() + "; giving up");
            }
            LOG.info("Another replica is migrating the schema; waiting");
            SchemaAgreement.pause(500, "the migration lease");
        }
    }

    /** Renews the lease for its whole TTL; fails if another run took it over meanwhile. */
    private void renewLease(String owner) {
        ResultSet rs = run(
                "UPDATE leases USING TTL ? SET owner = ?, acquired_at = ? WHERE name = ? IF owner = ?",
                (int) settings.migrations().leaseTtl().toSeconds(),
                owner,
                Instant.now(),
                LEASE,
                owner);
        if (!rs.wasApplied()) {
            throw new IllegalStateException("the schema migration lease expired and another run took it over; "
                    + "stopping so that two runs never change the schema at once");
        }
    }

    private Map<Integer, String> applied() {
        Map<Integer, String> applied = new HashMap<>();
        for (Row row : run("SELECT version, checksum FROM schema_migrations")) {
            applied.put(row.getInt("version"), row.getString("checksum"));
        }
        return applied;
    }

    private ResultSet run(String cql, Object... values) {
        return session.execute(statement(cql, values));
    }

    private SimpleStatement statement(String cql, Object... values) {
        return SimpleStatement.newInstance(cql, values).setNode(coordinator).setTimeout(Duration.ofSeconds(30));
    }

    /** The node this run talks to: one that is up, in the local datacenter when one is configured; null to let the driver pick. */
    private Node coordinator() {
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
     * renewing the lease (when this run holds it) each third of its TTL. A lagging node is nudged
     * by a new comment on schema_migrations, once every node has that table.
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
                        String owner = leaseOwner;
                        if (owner != null) {
                            renewLease(owner);
                        }
                    }
                },
                settings.migrations().agreementWait(),
                settings.migrations().agreementNudge(),
                PULL_DELAY,
                settings.migrations().leaseTtl().dividedBy(3),
                coordinator.getEndPoint().toString());
    }

    private UUID schemaVersion(Node node) {
        return session.execute(SimpleStatement.newInstance("SELECT schema_version FROM system.local")
                        .setNode(node)
                        .setTimeout(Duration.ofSeconds(10)))
                .one()
                .getUuid(0);
    }

    /**
     * The schema a fresh keyspace starts from: the end state of the files it covers (its "-- covers:"
     * lines), so a new keyspace takes one statement per table, type and index instead of the whole
     * chain. platform.BaselineTest (a test) proves both give the same schema and writes it again.
     */
    public record Baseline(List<Migration> covers, List<String> statements) {}

    static final String BASELINE = "baseline/schema.cql";
    private static final Pattern COVERS = Pattern.compile("^-- covers: (\\S+)$", Pattern.MULTILINE);

    /** The baseline, its covered files looked up in {@code migrations}; refuses one naming a file that is not there. */
    static Baseline baseline(List<Migration> migrations) {
        String text = read("cql/" + BASELINE);
        Map<String, Migration> byName = migrations.stream().collect(Collectors.toMap(Migration::name, m -> m));
        List<Migration> covers = new ArrayList<>();
        Matcher m = COVERS.matcher(text);
        while (m.find()) {
            Migration covered = byName.get(m.group(1));
            if (covered == null) {
                throw new IllegalStateException(
                        "cql/" + BASELINE + " covers " + m.group(1) + ", which cql/INDEX does not list");
            }
            covers.add(covered);
        }
        return new Baseline(covers, statements(text));
    }

    /** The migrations listed in cql/INDEX, in order. */
    public static List<Migration> load() {
        List<Migration> migrations = new ArrayList<>();
        int previous = 0;
        for (String name : read(INDEX)
                .lines()
                .map(String::trim)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .toList()) {
            Matcher m = FILE_NAME.matcher(name);
            if (!m.matches()) {
                throw new IllegalStateException("cql/INDEX lists " + name + ", which is not named NNN_name.cql");
            }
            int version = Integer.parseInt(m.group(1));
            if (version <= previous) {
                throw new IllegalStateException("cql/INDEX is not in increasing order at " + name);
            }
            previous = version;
            String text = read("cql/" + name);
            List<String> statements = statements(text);
            migrations.add(new Migration(version, name, statementsChecksum(statements), sha256(text), statements));
        }
        return migrations;
    }

    /** Splits a file into statements: "--" comment lines dropped, each statement ends with ';'. */
    static List<String> statements(String text) {
        String withoutComments = text.lines()
                .filter(line -> !line.stripLeading().startsWith("--"))
                .collect(Collectors.joining("\n"));
        List<String> statements = new ArrayList<>();
        for (String part : withoutComments.split(";\\s*(\\n|$)")) {
            String statement = part.strip();
            if (!statement.isEmpty()) {
                statements.add(statement);
            }
        }
        return statements;
    }

    /**
     * The checksum of what a file does: its statements with comments gone, white space folded to
     * one space and dropped next to punctuation, so re-wrapping a statement changes nothing.
     */
    static String statementsChecksum(List<String> statements) {
        return sha256(statements.stream()
                .map(st -> st.replaceAll("\\s+", " ")
                        .replaceAll(" ?([(),;=<>]) ?", "$1")
                        .strip())
                .collect(Collectors.joining(";\n")));
    }

    private static String read(String resource) {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the artifact");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(text.replace("\r\n", "\n").getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
