package dev.cqlpatterns.delivery;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.emptyOrNullString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import dev.cqlpatterns.platform.errors.Problem;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Black-box checks of the packaged artifact (the runnable jar, or the native executable with
 * {@code -Pnative}), started as production starts it: prod profile, configuration from outside.
 * The Cassandra node and the JWT key come from the global test resource, as for every test.
 */
@QuarkusIntegrationTest
@TestProfile(PackagedServiceIT.Packaged.class)
class PackagedServiceIT {

    /** Its own keyspace, so the artifact applies the migrations from scratch as a new cluster would. */
    public static class Packaged implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "cql-patterns.cassandra.keyspace",
                    "cql_patterns_packaged",
                    "cql-patterns.paging.cursor-secret",
                    "packaged-test-cursor-secret");
        }
    }

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void should_be_live_without_asking_cassandra() {
        given().when()
                .get("/q/health/live")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.name", not(hasItem("cassandra")));
    }

    @Test
    void should_be_started_and_ready_once_cassandra_answers() {
        // The paths the Kubernetes startup and readiness probes call.
        given().when().get("/q/health/started").then().statusCode(200).body("status", equalTo("UP"));
        given().when()
                .get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'cassandra' }.status", equalTo("UP"));
    }

    @Test
    void should_serve_the_ring_from_the_packaged_artifact() {
        given().when()
                .get("/ring")
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", equalTo("0"))
                .body("keyspace", equalTo("cql_patterns_packaged"))
                .body("nodes.state", hasItem("UP"))
                .body("ranges", not(empty()));
    }

    @Test
    void should_answer_problem_json_for_an_unknown_route() {
        // Problem bodies travel inside a Response: in a native image they need NativeReflection.
        given().when()
                .get("/no-such-route")
                .then()
                .statusCode(404)
                .contentType(containsString(Problem.MEDIA_TYPE))
                .body("status", equalTo(404))
                .body("type", not(emptyOrNullString()));
    }

    @Test
    void should_export_the_driver_metrics() {
        given().when().get("/q/metrics").then().statusCode(200).body(containsString("cassandra_session_"));
    }
}
