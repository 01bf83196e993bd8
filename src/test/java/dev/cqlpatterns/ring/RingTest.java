package dev.cqlpatterns.ring;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.math.BigInteger;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@SuppressWarnings("unchecked")
class RingTest {

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    @BeforeEach
    void a_table_with_a_composite_partition_key() {
        // A probe table of the test keyspace only: any table can be asked about.
        session.execute(SimpleStatement.newInstance("CREATE TABLE IF NOT EXISTS " + settings.keyspace()
                + ".ring_probe (country text, zip int, PRIMARY KEY ((country, zip)))"));
        session.refreshSchema();
    }

    @Test
    void should_cover_the_whole_ring_with_contiguous_ranges() {
        JsonPath ring = given().when()
                .get("/ring")
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", equalTo("0"))
                .body("partitioner", containsString("Murmur3Partitioner"))
                .body("nodes", hasSize(1))
                .body("nodes[0].state", equalTo("UP"))
                .extract()
                .jsonPath();
        List<Map<String, Object>> ranges = ring.getList("ranges");
        assertThat(ranges).hasSize(ring.getInt("nodes[0].ranges"));
        BigInteger total = BigInteger.ZERO;
        for (int i = 0; i < ranges.size(); i++) {
            Map<String, Object> range = ranges.get(i);
            Map<String, Object> next = ranges.get((i + 1) % ranges.size());
            // each range ends where the next one starts, and the last wraps to the first
            assertThat(next.get("start")).isEqualTo(range.get("end"));
            BigInteger size =
                    new BigInteger((String) range.get("end")).subtract(new BigInteger((String) range.get("start")));
            total = total.add(size.signum() <= 0 ? size.add(BigInteger.ONE.shiftLeft(64)) : size);
            assertThat(range.get("owner")).isEqualTo(ring.getString("nodes[0].address"));
            assertThat((List<Object>) range.get("replicas")).containsExactly(ring.getString("nodes[0].address"));
        }
        assertThat(total).isEqualTo(BigInteger.ONE.shiftLeft(64));
        assertThat(ranges.stream().filter(r -> Boolean.TRUE.equals(r.get("wraps"))))
                .hasSize(1);
    }

    @Test
    void should_compute_the_same_token_as_cassandra() {
        session.execute(SimpleStatement.newInstance(
                "INSERT INTO " + settings.keyspace() + ".ring_probe (country, zip) VALUES ('TR', 34000)"));
        long expected = session.execute(SimpleStatement.newInstance("SELECT token(country, zip) FROM "
                        + settings.keyspace() + ".ring_probe WHERE country = 'TR' AND zip = 34000"))
                .one()
                .getLong(0);

        given().queryParam("key", "country=TR", "zip=34000")
                .when()
                .get("/ring/ring_probe/token")
                .then()
                .statusCode(200)
                .body("token", equalTo(Long.toString(expected)))
                .body("partitionKey.country", equalTo("TR"))
                .body("replicas", hasSize(1));
    }

    @Test
    void should_hash_a_single_column_key() {
        long expected = session
                .execute(SimpleStatement.newInstance(
                        "SELECT token(name) FROM " + settings.keyspace() + ".leases WHERE name = 'x' LIMIT 1"))
                .all()
                .stream()
                .findFirst()
                .map(r -> r.getLong(0))
                .orElse(Long.MIN_VALUE);
        String token = given().queryParam("key", "name=x")
                .when()
                .get("/ring/leases/token")
                .then()
                .statusCode(200)
                .extract()
                .path("token");
        if (expected != Long.MIN_VALUE) {
            assertThat(token).isEqualTo(Long.toString(expected));
        }
        assertThat(Long.parseLong(token)).isNotZero();
    }

    @Test
    void should_name_a_missing_partition_key_column() {
        problem(token("ring_probe", "country=TR"), 400, "key")
                .body("errors[0].message", containsString("zip is missing"));
    }

    @Test
    void should_refuse_a_column_that_is_not_of_the_partition_key_rather_than_drop_it() {
        problem(token("ring_probe", "country=TR", "zip=34000", "city=Istanbul"), 400, "key")
                .body("errors[0].message", containsString("city is not a partition key column"));
    }

    @Test
    void should_refuse_a_column_given_twice_and_any_other_parameter() {
        problem(token("ring_probe", "country=TR", "zip=34000", "zip=35000"), 400)
                .body("errors[0].message", containsString("zip is given twice"));
        problem(
                given().queryParam("key", "country=TR", "zip=34000")
                        .queryParam("country", "TR")
                        .when()
                        .get("/ring/ring_probe/token"),
                400,
                "country");
    }

    @Test
    void should_name_a_malformed_partition_key_column() {
        problem(token("ring_probe", "country=TR", "zip=not-a-number"), 400, "key")
                .body("errors[0].message", containsString("zip is not a valid int"));
    }

    @Test
    void should_answer_404_for_an_unknown_table() {
        problem(token("no_such_table", "id=1"), 404).body("type", equalTo("urn:cql-patterns:problem:not-found"));
    }

    @Test
    void should_refuse_a_table_name_cassandra_could_not_have() {
        for (String table : List.of("ring-probe", "a".repeat(49), "ring_probe;")) {
            problem(token(table, "country=TR", "zip=34000"), 400, "table");
        }
    }

    @Test
    void should_refuse_a_partition_key_value_over_256_characters_or_with_control_characters() {
        token("ring_probe", "country=" + "T".repeat(256), "zip=34000")
                .then()
                .statusCode(200)
                .body("partitionKey.country", equalTo("T".repeat(256)));
        for (String country :
                List.of("country=" + "T".repeat(257), "country=T\u0000R", "country=T\nR", "country=", "TR")) {
            problem(token("ring_probe", country, "zip=34000"), 400, "key");
        }
    }

    /** GET the token of the partition {@code keyParts} of {@code table}, the answer not yet checked. */
    private static Response token(String table, Object... keyParts) {
        return given().queryParam("key", keyParts).when().get("/ring/{table}/token", table);
    }
}
