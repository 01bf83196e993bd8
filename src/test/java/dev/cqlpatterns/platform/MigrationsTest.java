package dev.cqlpatterns.platform;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import dev.cqlpatterns.platform.schema.MigrationFiles;
import dev.cqlpatterns.platform.schema.Migrations;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MigrationsTest {

    @Inject
    Migrations migrations;

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    @Test
    void index_should_list_every_file_of_cql_in_order() throws IOException {
        Path cql = Path.of(System.getProperty("cqlpatterns.root", ".")).resolve("cql");
        List<String> files;
        try (Stream<Path> list = Files.list(cql)) {
            files = list.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".cql"))
                    .sorted()
                    .toList();
        }
        assertThat(MigrationFiles.load().stream()
                        .map(MigrationFiles.Migration::name)
                        .toList())
                .isEqualTo(files);
    }

    @Test
    void every_migration_should_be_recorded_once_with_its_checksum() {
        var recorded = session.execute(SimpleStatement.newInstance(
                        "SELECT version, checksum FROM " + settings.keyspace() + ".schema_migrations"))
                .all();
        List<MigrationFiles.Migration> expected = MigrationFiles.load();
        assertThat(recorded).hasSize(expected.size());
        for (MigrationFiles.Migration m : expected) {
            assertThat(recorded)
                    .anyMatch(r -> r.getInt("version") == m.version()
                            && r.getString("checksum").equals(m.checksum()));
        }
    }

    @Test
    void replicas_migrating_at_the_same_moment_should_both_succeed_and_apply_nothing_twice() {
        var first = CompletableFuture.supplyAsync(migrations::migrate);
        var second = CompletableFuture.supplyAsync(migrations::migrate);
        assertThat(first.join()).isEmpty();
        assertThat(second.join()).isEmpty();
        assertThat(session.execute(SimpleStatement.newInstance(
                                "SELECT count(*) FROM " + settings.keyspace() + ".schema_migrations"))
                        .one()
                        .getLong(0))
                .isEqualTo(MigrationFiles.load().size());
    }

    @Test
    void should_accept_a_whole_file_checksum_of_an_earlier_release_once_and_refuse_a_changed_statement() {
        MigrationFiles.Migration first = MigrationFiles.load().get(0);
        String table = settings.keyspace() + ".schema_migrations";
        try {
            session.execute(SimpleStatement.newInstance(
                    "UPDATE " + table + " SET checksum = ? WHERE version = ?", first.fileChecksum(), first.version()));
            assertThat(migrations.migrate()).isEmpty();
            assertThat(session.execute(SimpleStatement.newInstance(
                                    "SELECT checksum FROM " + table + " WHERE version = ?", first.version()))
                            .one()
                            .getString(0))
                    .isEqualTo(first.checksum());

            session.execute(SimpleStatement.newInstance(
                    "UPDATE " + table + " SET checksum = ? WHERE version = ?",
                    "a-statement-that-changed",
                    first.version()));
            assertThatThrownBy(migrations::migrate).hasMessageContaining("changed after it was applied");
        } finally {
            session.execute(SimpleStatement.newInstance(
                    "UPDATE " + table + " SET checksum = ? WHERE version = ?", first.checksum(), first.version()));
        }
    }

    /**
     * A run that lost its lease (it expired during a long wait and another run took it over) stops
     * instead of changing the schema beside the new holder: concurrent DDL is how Cassandra ends up
     * with schema disagreement. The run renews the lease after each file and whenever a third of its
     * TTL has passed, and a renewal that finds another owner fails the run.
     */
    @Test
    void a_run_whose_lease_was_taken_over_should_stop() throws Exception {
        String fresh = "lease_taken_" + UUID.randomUUID().toString().substring(0, 8);
        var run = CompletableFuture.supplyAsync(() -> migrations.migrate(fresh, true));
        try {
            // The baseline takes seconds: once the run holds the lease, another run takes it over.
            while (!run.isDone() && leaseOwner(fresh) == null) {
                Thread.sleep(20);
            }
            session.execute(SimpleStatement.newInstance(
                    "UPDATE " + fresh + ".leases SET owner = 'another-run' WHERE name = 'schema-migrations'"));
            assertThatThrownBy(run::join)
                    .hasCauseInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("another run took it over");
        } finally {
            session.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + fresh));
        }
    }

    private String leaseOwner(String keyspace) {
        try {
            var row = session.execute(SimpleStatement.newInstance(
                            "SELECT owner FROM " + keyspace + ".leases WHERE name = 'schema-migrations'"))
                    .one();
            return row == null ? null : row.getString("owner");
        } catch (InvalidQueryException notYetCreated) {
            return null;
        } catch (ServerError notYetLoaded) {
            // Created, but not yet loaded on the node that ran the read ("Unknown CF <table id>").
            if (String.valueOf(notYetLoaded.getMessage()).contains("Unknown CF")) {
                return null;
            }
            throw notYetLoaded;
        }
    }

    /**
     * Every table a function reads speculates at the coordinator within 50 ms (cql/047): a table
     * added without it would let a paused replica stall its reads past the driver's timeout.
     */
    @Test
    void every_table_should_speculate_within_50_ms() {
        Map<String, String> policies = new TreeMap<>();
        session.execute(SimpleStatement.newInstance(
                        "SELECT table_name, speculative_retry FROM system_schema.tables WHERE keyspace_name = ?",
                        settings.keyspace()))
                .forEach(row -> policies.put(row.getString("table_name"), row.getString("speculative_retry")));
        // The migrations' own bookkeeping, created before cql/ runs and read once per start.
        policies.keySet().removeAll(Set.of("schema_migrations", "leases"));
        assertThat(policies)
                .isNotEmpty()
                .allSatisfy(
                        (table, policy) -> assertThat(policy).as(table).isEqualToIgnoringWhitespace("MIN(99p,50ms)"));
    }
}
