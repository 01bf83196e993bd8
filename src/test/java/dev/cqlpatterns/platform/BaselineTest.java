package dev.cqlpatterns.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.cql.ColumnDefinition;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.protocol.internal.util.Bytes;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.schema.MigrationFiles;
import dev.cqlpatterns.platform.schema.Migrations;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * cql/baseline/schema.cql gives a fresh keyspace the schema the whole cql/ chain gives: the same
 * tables, columns, types, clustering orders, options (compaction, speculative_retry, TTL defaults,
 * gc_grace_seconds and the rest), indexes and user types, as Cassandra describes them in
 * system_schema. After a new migration, regenerate the baseline from the chain with
 * {@code ./mvnw test -Dtest=BaselineTest -Dbaseline.write=true} and review the diff.
 */
@QuarkusTest
class BaselineTest {
    /** Tables and fields system_schema keeps per keyspace; ids and the keyspace's name differ by nature. */
    private static final Map<String, String> SCHEMA = Map.of(
            "tables", "table_name",
            "columns", "table_name, column_name",
            "indexes", "table_name, index_name",
            "types", "type_name",
            "views", "view_name");

    @Inject
    Migrations migrations;

    @Inject
    QuarkusCqlSession session;

    @Test
    void baseline_should_give_a_new_keyspace_the_schema_of_the_whole_chain() throws Exception {
        String suffix = UUID.randomUUID().toString().substring(0, 8);
        String chain = "baseline_chain_" + suffix;
        String fresh = "baseline_fresh_" + suffix;
        try {
            migrations.migrate(chain, false);
            if (Boolean.getBoolean("baseline.write")) {
                Path root = Path.of(System.getProperty("cqlpatterns.root", "."));
                Files.writeString(root.resolve("cql/baseline/schema.cql"), baseline(chain));
            }
            List<String> applied = migrations.migrate(fresh, true);

            assertThat(applied)
                    .as("files recorded for the fresh keyspace")
                    .containsExactlyInAnyOrderElementsOf(MigrationFiles.load().stream()
                            .map(MigrationFiles.Migration::name)
                            .toList());
            Map<String, Map<String, String>> want = schema(chain);
            Map<String, Map<String, String>> got = schema(fresh);
            assertThat(want).as("the chain's schema").isNotEmpty();
            List<String> differences = new ArrayList<>();
            for (String key : new TreeSet<>(union(want.keySet(), got.keySet()))) {
                if (!Objects.equals(want.get(key), got.get(key))) {
                    differences.add(key + ": the chain gives " + want.get(key) + ", the baseline " + got.get(key));
                }
            }
            assertThat(differences)
                    .as("where a keyspace from the baseline differs from the chain's")
                    .isEmpty();
        } finally {
            for (String keyspace : List.of(chain, fresh)) {
                session.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
                        .setTimeout(java.time.Duration.ofSeconds(30)));
            }
        }
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> all = new TreeSet<>(a);
        all.addAll(b);
        return all;
    }

    /** What system_schema holds for {@code keyspace}, by table and key, ids left out. */
    private Map<String, Map<String, String>> schema(String keyspace) {
        Map<String, Map<String, String>> schema = new TreeMap<>();
        SCHEMA.forEach((table, key) -> {
            for (Row row : session.execute(SimpleStatement.newInstance(
                    "SELECT * FROM system_schema." + table + " WHERE keyspace_name = ?", keyspace))) {
                Map<String, String> fields = new TreeMap<>();
                StringBuilder id = new StringBuilder(table);
                for (ColumnDefinition column : row.getColumnDefinitions()) {
                    String name = column.getName().asInternal();
                    if (!name.equals("keyspace_name") && !name.equals("id")) {
                        Object value = row.getObject(name);
                        fields.put(
                                name,
                                value instanceof ByteBuffer bytes ? Bytes.toHexString(bytes) : String.valueOf(value));
                    }
                }
                for (String part : key.split(", ")) {
                    id.append(' ').append(row.getString(part));
                }
                schema.put(id.toString(), fields);
            }
        });
        return schema;
    }

    /** The chain's end state as CQL: every type, table and index but the migrator's own two tables. */
    private String baseline(String keyspace) {
        session.refreshSchema();
        String described = session.getMetadata()
                .getKeyspace(CqlIdentifier.fromInternal(keyspace))
                .orElseThrow()
                .describeWithChildren(true);
        StringBuilder text = new StringBuilder("""
                -- The schema of a new keyspace: the end state of the cql/ files it covers, as Cassandra describes
                -- them after the whole chain. Generated: ./mvnw test -Dtest=BaselineTest -Dbaseline.write=true
                -- (which also proves it equal to the chain); never edited by hand. A keyspace with no file recorded
                -- gets this, then records the files below as applied (platform.schema.Migrations). What each table
                -- serves, and why it looks as it does, is in its file.
                """);
        for (MigrationFiles.Migration m : MigrationFiles.load()) {
            text.append("-- covers: ").append(m.name()).append('\n');
        }
        List<String> statements = new ArrayList<>();
        // Statements are separated by a blank line; an index's has no ';' of its own.
        for (String statement : described.split("\\n\\s*\\n")) {
            String s = statement.strip().replaceAll(";$", "").replace(keyspace + ".", "");
            if (s.isEmpty()
                    || s.startsWith("CREATE KEYSPACE")
                    || s.startsWith("CREATE TABLE schema_migrations ")
                    || s.startsWith("CREATE TABLE leases ")) {
                continue;
            }
            statements.add(s.replaceFirst("^CREATE (TABLE|TYPE|INDEX|CUSTOM INDEX) ", "CREATE $1 IF NOT EXISTS "));
        }
        for (String s : statements) {
            text.append('\n').append(s).append(";\n");
        }
        return text.toString();
    }
}
