package dev.cqlpatterns.platform;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import org.junit.jupiter.api.Test;

@QuarkusTest
class PlatformProblemsTest {

    @Test
    void should_answer_unknown_route_with_404_problem() {
        problem(given().when().get("/no-such-route"), 404)
                .body("type", equalTo("urn:cql-patterns:problem:not-found"))
                .body("status", equalTo(404));
    }

    @Test
    void should_answer_malformed_json_with_400_problem() {
        problem(echo(ContentType.JSON, "{\"text\": "), 400)
                .body("type", equalTo("urn:cql-patterns:problem:malformed-json"))
                .body("detail", not(containsString("com.fasterxml")));
    }

    @Test
    void should_name_every_invalid_field() {
        problem(echo(ContentType.JSON, "{\"text\": \"\", \"n\": 0}"), 400)
                .body("type", equalTo("urn:cql-patterns:problem:validation"))
                .body("errors.field", hasItem("text"))
                .body("errors.field", hasItem("n"));
    }

    @Test
    void should_name_a_field_of_the_wrong_type() {
        problem(echo(ContentType.JSON, "{\"text\": \"a\", \"n\": \"many\"}"), 400, "n");
    }

    @Test
    void should_answer_wrong_media_type_with_415_problem() {
        problem(echo(ContentType.TEXT, "text=a"), 415)
                .body("type", equalTo("urn:cql-patterns:problem:unsupported-media-type"));
    }

    @Test
    void should_answer_body_over_limit_with_413_problem() {
        String big = "{\"text\": \"" + "x".repeat(1_100_000) + "\"}";
        problem(echo(ContentType.JSON, big), 413).body("type", equalTo("urn:cql-patterns:problem:payload-too-large"));
    }

    @Test
    void should_answer_wrong_method_with_405_problem() {
        problem(given().when().delete("/test-probe/echo"), 405);
    }

    @Test
    void should_require_a_bearer_token() {
        problem(given().when().get("/test-probe/me"), 401).header("WWW-Authenticate", equalTo("Bearer"));
        problem(given().header("Authorization", "Bearer not-a-jwt").when().get("/test-probe/me"), 401);
    }

    @Test
    void should_take_the_caller_from_the_token_subject() {
        given().header("Authorization", Tokens.bearer("alice"))
                .when()
                .get("/test-probe/me")
                .then()
                .statusCode(200)
                .body("username", equalTo("alice"));
    }

    @Test
    void should_round_trip_a_cursor_and_refuse_a_tampered_one() {
        String next = given().when()
                .get("/test-probe/cursor")
                .then()
                .statusCode(200)
                .body("last", equalTo("start"))
                .extract()
                .path("next");
        cursorPage("cursor", next).then().statusCode(200).body("last", equalTo("start+"));
        String tampered = (next.charAt(0) == 'A' ? 'B' : 'A') + next.substring(1);
        problem(cursorPage("cursor", tampered), 400).body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
        problem(cursorPage("cursor", "garbage"), 400);
    }

    @Test
    void should_refuse_a_limit_over_the_maximum() {
        problem(cursorPage("limit", 501), 400).body("detail", containsString("500"));
        problem(cursorPage("limit", "ten"), 400);
    }

    /** POSTs {@code body} as {@code type} to the probe's echo. */
    private static Response echo(ContentType type, String body) {
        return given().contentType(type).body(body).when().post("/test-probe/echo");
    }

    /** GETs the probe's cursor list with one query parameter. */
    private static Response cursorPage(String parameter, Object value) {
        return given().queryParam(parameter, value).when().get("/test-probe/cursor");
    }

    @Test
    void should_count_partitions_and_statements_of_a_request() {
        given().when()
                .get("/test-probe/read")
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", equalTo("2"))
                .header("X-Statements", equalTo("2"));
        // the same figures per route, for dashboards
        given().when()
                .get("/q/metrics")
                .then()
                .statusCode(200)
                .body(containsString("cql_request_partitions_read_count{route=\"ProbeResource.read\"}"))
                .body(containsString("cql_request_statements_sum{route=\"ProbeResource.read\"}"));
    }

    @Test
    void should_serve_health_metrics_and_openapi() {
        given().when().get("/q/health/live").then().statusCode(200).body("status", equalTo("UP"));
        given().when()
                .get("/q/health/ready")
                .then()
                .statusCode(200)
                .body("status", equalTo("UP"))
                .body("checks.find { it.name == 'cassandra' }.data.releaseVersion", notNullValue());
        given().when().get("/q/metrics").then().statusCode(200).body(containsString("http_server_requests"));
        given().when().get("/q/openapi").then().statusCode(200).body(containsString("openapi"));
    }
}
