package dev.cqlpatterns.platform.schema;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** A migration's checksum is what it does: comments and layout may change, statements may not. */
class MigrationChecksumTest {
    private static final String APPLIED = """
            -- Serves: GetThing. Query: SELECT * FROM things WHERE id = ?
            CREATE TABLE IF NOT EXISTS things (id uuid PRIMARY KEY, name text);
            """;

    private static String checksum(String file) {
        return MigrationFiles.statementsChecksum(MigrationFiles.statements(file));
    }

    @Test
    void should_keep_the_checksum_when_only_comments_and_layout_change() {
        String documented = """
                -- Serves: GetThing, one partition.
                -- Query: SELECT * FROM things WHERE id = ?
                -- Why not a map: see SEEDS.md.
                CREATE TABLE IF NOT EXISTS things (
                    id uuid PRIMARY KEY,
                    name text
                );
                """;
        assertThat(checksum(documented)).isEqualTo(checksum(APPLIED));
    }

    @Test
    void should_change_the_checksum_when_a_statement_changes() {
        assertThat(checksum(APPLIED.replace("name text", "name text, age int"))).isNotEqualTo(checksum(APPLIED));
        assertThat(checksum(APPLIED + "CREATE INDEX ON things (name);\n")).isNotEqualTo(checksum(APPLIED));
    }
}
