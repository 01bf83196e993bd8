package dev.cqlpatterns.delivery;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;

import dev.cqlpatterns.testsupport.CassandraTestResource;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The packaged service rides out a Cassandra outage: readiness goes DOWN within 10 s of the node
 * stopping, requests get 503 problem+json with Retry-After meanwhile, and readiness is UP again
 * within 30 s of the node coming back, without restarting the service. Needs the project's own
 * local node (skipped when tests run against given contact points or a container). The same packaged
 * process serves ApiReferenceIT and PackagedServiceIT (one profile, so Quarkus launches it once), and
 * the tests after this one find it recovered.
 */
@QuarkusIntegrationTest
@TestProfile(PackagedServiceIT.Packaged.class)
class CassandraOutageIT {

    @Test
    void should_answer_503_while_cassandra_is_down_and_recover_without_a_restart() {
        Assumptions.assumeTrue(CassandraTestResource.usesLocalNode(), "runs only against the project's local node");
        given().when().get("/q/health/ready").then().statusCode(200);
        try {
            assertThat(CassandraTestResource.localNode("stop")).isZero();
            Instant stopped = Instant.now();
            Duration down = waitForReadiness(503, Duration.ofSeconds(10));
            System.out.printf("readiness DOWN %d ms after the node stopped%n", down.toMillis());
            assertThat(Duration.between(stopped, Instant.now())).isLessThanOrEqualTo(Duration.ofSeconds(10));

            problem(given().when().get("/courses/outage-probe"), 503)
                    .header("Retry-After", notNullValue())
                    .body("type", equalTo("urn:cql-patterns:problem:cassandra-unavailable"));
        } finally {
            assertThat(CassandraTestResource.localNode("start")).isZero();
        }
        Duration up = waitForReadiness(200, Duration.ofSeconds(30));
        System.out.printf("readiness UP %d ms after the node answered CQL again%n", up.toMillis());
        given().when().get("/courses/outage-probe").then().statusCode(404);
    }

    private static Duration waitForReadiness(int status, Duration atMost) {
        Instant start = Instant.now();
        while (true) {
            Response response = given().when().get("/q/health/ready");
            Duration waited = Duration.between(start, Instant.now());
            if (response.statusCode() == status) {
                return waited;
            }
            assertThat(waited).as("readiness to answer " + status).isLessThan(atMost);
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }
}
