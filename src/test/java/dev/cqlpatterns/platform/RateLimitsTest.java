package dev.cqlpatterns.platform;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.testsupport.SignUp;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Rate limits (platform.limits.RateLimits) with the small budgets of {@link SmallRateLimitsProfile}:
 * 4 writes, 50 reads, 3,000 body bytes per caller.
 */
@QuarkusTest
@TestProfile(SmallRateLimitsProfile.class)
class RateLimitsTest {

    private static String someone(String name) {
        return SignUp.user(name + "-" + UUID.randomUUID().toString().substring(0, 8));
    }

    private static ExtractableResponse<Response> send(String sender, String conversation, String content) {
        return given().header("Authorization", Tokens.bearer(sender))
                .contentType(ContentType.JSON)
                .body(Map.of("content", content))
                .when()
                .post("/conversations/{id}/messages", conversation)
                .then()
                .extract();
    }

    @Test
    void should_refuse_a_users_writes_over_budget_without_touching_anyone_elses() {
        String alice = someone("alice"); // write 1 of alice: signing up
        String bob = someone("bob");
        String conversation = given().header("Authorization", Tokens.bearer(alice))
                .contentType(ContentType.JSON)
                .body(Map.of("members", List.of(bob)))
                .when()
                .post("/conversations") // write 2
                .then()
                .statusCode(201)
                .header("RateLimit-Limit", equalTo(String.valueOf(SmallRateLimitsProfile.WRITES)))
                .header("RateLimit-Remaining", equalTo(String.valueOf(SmallRateLimitsProfile.WRITES - 2)))
                .extract()
                .path("id");

        int sent = 0;
        ExtractableResponse<Response> refused = null;
        for (int i = 0; i < 10 && refused == null; i++) {
            ExtractableResponse<Response> answer = send(alice, conversation, "message " + i);
            if (answer.statusCode() == 201) {
                sent++;
            } else {
                refused = answer;
            }
        }
        assertThat(sent).isEqualTo(SmallRateLimitsProfile.WRITES - 2);
        assertThat(refused).isNotNull();
        assertThat(refused.statusCode()).isEqualTo(429);
        assertThat(refused.contentType()).isEqualTo(Problem.MEDIA_TYPE);
        assertThat(refused.<String>path("type")).isEqualTo("urn:cql-patterns:problem:rate-limited");
        assertThat(refused.<Integer>path("status")).isEqualTo(429);
        assertThat(Long.parseLong(refused.header("Retry-After"))).isBetween(1L, 3600L);
        assertThat(refused.header("RateLimit-Limit")).isEqualTo(String.valueOf(SmallRateLimitsProfile.WRITES));
        assertThat(refused.header("RateLimit-Remaining")).isEqualTo("0");
        assertThat(Long.parseLong(refused.header("RateLimit-Reset"))).isBetween(1L, 3600L);
        assertThat(refused.header("X-Statements")).isEqualTo("0");

        // Bob's budget is his own: alice used hers up, he still sends (his second write).
        assertThat(send(bob, conversation, "still here").statusCode()).isEqualTo(201);
        // Reads are a budget of their own; the refused message was never stored.
        given().header("Authorization", Tokens.bearer(alice))
                .when()
                .get("/conversations/{id}/messages", conversation)
                .then()
                .statusCode(200)
                .header("RateLimit-Limit", equalTo(String.valueOf(SmallRateLimitsProfile.READS)))
                .body("items.size()", equalTo(sent + 1))
                .body("items.content", not(hasItem("message " + sent)));
    }

    @Test
    void should_charge_anonymous_paste_bytes_to_the_client_address() {
        String body = "x".repeat(1000);
        String run = UUID.randomUUID().toString().substring(0, 8);
        // About 1,060 bytes each: two fit in the 3,000 bytes of 10.1.0.1, a third does not.
        paste("10.1.0.1", run + " kept 0", body).then().statusCode(201);
        paste("10.1.0.1", run + " kept 1", body)
                .then()
                .statusCode(201)
                .header("RateLimit-Limit", equalTo(String.valueOf(SmallRateLimitsProfile.BODY_BYTES)));
        problem(paste("10.1.0.1", run + " refused", body), 429)
                .body("type", equalTo("urn:cql-patterns:problem:rate-limited"))
                .body("detail", containsString("body-bytes"))
                .header("Retry-After", not(equalTo("0")))
                .header("RateLimit-Limit", equalTo(String.valueOf(SmallRateLimitsProfile.BODY_BYTES)));
        // Another client address has its own budget.
        paste("10.1.0.2", run + " other", body).then().statusCode(201);

        List<String> titles = given().header("X-Forwarded-For", "10.1.0.3")
                .queryParam("limit", 500)
                .when()
                .get("/pastes")
                .then()
                .statusCode(200)
                .extract()
                .path("items.title");
        assertThat(titles)
                .contains(run + " kept 0", run + " kept 1", run + " other")
                .doesNotContain(run + " refused");
    }

    private static Response paste(String address, String title, String body) {
        return given().header("X-Forwarded-For", address)
                .contentType(ContentType.JSON)
                .body(Map.of("title", title, "body", body, "private", false))
                .when()
                .post("/pastes");
    }
}
