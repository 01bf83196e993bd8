package dev.cqlpatterns.platform.identity;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.Metrics;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.http.runtime.filters.Filters;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * No request carries Quarkus's default auth-failure handler past authentication, so Quarkus REST's
 * filter behind it builds no request mapper per request; auth failures still answer problem+json and
 * are counted under the route's template, not the path a caller chose.
 */
@QuarkusTest
class LazyAuthFailuresTest {
    private static final String PROBE = "X-Probe";

    /** Whether each probed request still carried the handler right after Quarkus REST's filter. */
    static final Map<String, Boolean> HANDLER_SEEN = new ConcurrentHashMap<>();

    @Singleton
    static class Probe {
        void register(@Observes Filters filters) {
            // Registered after Quarkus's own filters, so at 199 this runs right after Quarkus REST's.
            filters.register(
                    rc -> {
                        String probe = rc.request().getHeader(PROBE);
                        if (probe != null) {
                            HANDLER_SEEN.put(probe, rc.get(LazyAuthFailures.HANDLER) != null);
                        }
                        rc.next();
                    },
                    LazyAuthFailures.AUTHENTICATION - 1);
        }
    }

    @Test
    void should_carry_no_auth_failure_handler_past_authentication() {
        String anonymous = UUID.randomUUID().toString();
        String badToken = UUID.randomUUID().toString();
        given().header(PROBE, anonymous).when().get("/q/health/live").then().statusCode(200);
        problem(
                given().header(PROBE, badToken)
                        .header("Authorization", "Bearer not-a-jwt")
                        .when()
                        .get("/conversations/{id}", UUID.randomUUID()),
                401);
        assertThat(HANDLER_SEEN).containsEntry(anonymous, false).containsEntry(badToken, false);
    }

    @Test
    void should_count_a_refused_token_under_the_route_template() {
        String id = UUID.randomUUID().toString();
        problem(given().header("Authorization", "Bearer not-a-jwt").when().get("/conversations/{id}", id), 401);
        String metrics = Metrics.exposition();
        assertThat(metrics).doesNotContain(id);
        assertThat(metrics.lines())
                .anyMatch(line -> line.startsWith("http_server_requests_seconds_count{")
                        && line.contains("uri=\"/conversations/{id}\"")
                        && line.contains("status=\"401\""));
    }
}
