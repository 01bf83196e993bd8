package dev.cqlpatterns.platform.schema;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** docs/tables.md is what {@link TablesDoc} writes from cql/ and the code today. */
class TablesDocTest {

    @Test
    void docs_tables_should_be_what_cql_and_the_code_say() throws IOException {
        Path root = Path.of(System.getProperty("cqlpatterns.root", System.getProperty("user.dir")));
        Path doc = root.resolve("docs/tables.md");
        String generated = TablesDoc.generate(root);
        if (Boolean.getBoolean("tables.write")) {
            Files.writeString(doc, generated);
        }
        assertThat(doc).as("docs/tables.md").exists();
        assertThat(Files.readString(doc))
                .as("docs/tables.md differs from cql/ and the code: run "
                        + "./mvnw test -Dtest=TablesDocTest -Dtables.write=true and review the diff")
                .isEqualTo(generated);
    }
}
