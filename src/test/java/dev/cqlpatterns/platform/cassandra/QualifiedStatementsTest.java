package dev.cqlpatterns.platform.cassandra;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Every statement is prepared with its keyspace in its text. One prepared with a per-request
 * keyspace instead is executed without one, which every node refuses once with an ERROR in its
 * log ("Tried to execute a prepared unqualified statement on a keyspace it was not prepared on").
 */
@QuarkusTest
class QualifiedStatementsTest {

    @Inject
    Cql cql;

    @Inject
    StoredRows stored;

    @Test
    void should_prepare_every_statement_with_its_keyspace_in_its_text() {
        String id = createdId(given().contentType(ContentType.JSON)
                .body(Map.of("title", "t", "body", "b", "private", false))
                .when()
                .post("/pastes"));
        given().when().get("/pastes/" + id).then().statusCode(200);
        given().when().get("/pastes").then().statusCode(200);

        CqlIdentifier keyspace = cql.keyspace();
        Set<String> serverSide =
                stored.execute("SELECT query_string, logged_keyspace FROM system.prepared_statements").stream()
                        .filter(row -> row.isNull("logged_keyspace"))
                        .map(row -> row.getString("query_string"))
                        .collect(Collectors.toSet());
        assertThat(cql.preparedCql()).isNotEmpty().allSatisfy(text -> {
            String qualified = PreparedStatements.qualified(text, keyspace);
            assertThat(qualified).contains(keyspace.asCql(true) + ".");
            assertThat(serverSide)
                    .as("prepared on the server without a per-request keyspace")
                    .contains(qualified);
        });
    }

    @Test
    void should_qualify_the_table_of_each_kind_of_statement_once() {
        CqlIdentifier ks = CqlIdentifier.fromInternal("ks");
        assertThat(PreparedStatements.qualified("SELECT a FROM t WHERE k = ?", ks))
                .isEqualTo("SELECT a FROM ks.t WHERE k = ?");
        assertThat(PreparedStatements.qualified("INSERT INTO t (a) VALUES (?) IF NOT EXISTS", ks))
                .isEqualTo("INSERT INTO ks.t (a) VALUES (?) IF NOT EXISTS");
        assertThat(PreparedStatements.qualified("UPDATE t USING TTL ? SET a = ? WHERE k = ?", ks))
                .isEqualTo("UPDATE ks.t USING TTL ? SET a = ? WHERE k = ?");
        assertThat(PreparedStatements.qualified("DELETE seen[?] FROM t WHERE k = ?", ks))
                .isEqualTo("DELETE seen[?] FROM ks.t WHERE k = ?");
        assertThat(PreparedStatements.qualified("select a from other.t", ks)).isEqualTo("select a from other.t");
    }
}
