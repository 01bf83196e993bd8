package dev.cqlpatterns.platform;

import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Bodies of the wrong JSON type and one-line fields holding control characters are refused with a
 * 400 naming the field, on every route, and leave what was stored as it was (found with a fuzzer
 * that sent each route's fields as numbers, booleans and NULs).
 */
@QuarkusTest
class StrictInputTest {
    private static final String PROBLEM = "application/problem+json";

    private static ValidatableResponse send(String method, String user, String path, Object body) {
        return given().header("Authorization", Tokens.bearer(user)).contentType(ContentType.JSON).body(body)
                .when().request(method, path).then();
    }

    @Test
    void should_refuse_values_of_the_wrong_json_type_and_keep_what_was_stored() {
        String course = "strict-" + UUID.randomUUID().toString().substring(0, 8);
        send("PUT", "teacher", "/courses/" + course, Map.of("name", "Data modelling")).statusCode(200);
        for (Object name : List.of(5, true, -1, 1.5e300)) {
            send("PUT", "teacher", "/courses/" + course, Map.of("name", name)).statusCode(400).contentType(PROBLEM)
                    .body("errors[0].field", equalTo("name"));
        }
        given().when().get("/courses/" + course).then().statusCode(200).body("name", equalTo("Data modelling"));

        String path = "/songs/Strict/Input/" + course;
        send("PUT", "tagger", path, Map.of("tags", List.of("jazz"))).statusCode(201);
        send("PUT", "tagger", path, Map.of("tags", List.of(1, 2))).statusCode(400).contentType(PROBLEM);
        given().when().get(path).then().statusCode(200).body("tags", equalTo(List.of("jazz")));

        String user = "strict_" + UUID.randomUUID().toString().substring(0, 8);
        send("POST", user, "/users", Map.of("username", user, "email", user + "@example.com", "age", 30.7))
                .statusCode(400).contentType(PROBLEM).body("errors[0].field", equalTo("age"));
        send("POST", user, "/users", Map.of("username", user, "email", user + "@example.com", "age", "30"))
                .statusCode(400).contentType(PROBLEM).body("errors[0].field", equalTo("age"));
        send("POST", user, "/users", Map.of("username", user, "email", user + "@example.com")).statusCode(201);
        send("PUT", user, "/users/" + user + "/addresses/home", Map.of("street", "1 Main St", "city", "Paris", "zip", "75001"))
                .statusCode(400).contentType(PROBLEM).body("errors[0].field", equalTo("zip"));
        given().contentType(ContentType.JSON).body(Map.of("body", "x", "private", 1)).when().post("/pastes")
                .then().statusCode(400).contentType(PROBLEM).body("errors[0].field", equalTo("private"));
    }

    @Test
    void should_refuse_control_characters_in_one_line_fields() {
        String course = "strict-" + UUID.randomUUID().toString().substring(0, 8);
        send("PUT", "teacher", "/courses/" + course, Map.of("name", "a\u0000b")).statusCode(400).contentType(PROBLEM)
                .body("errors[0].field", equalTo("name"));
        send("PUT", "teacher", "/courses/" + course, Map.of("name", "Intro")).statusCode(200);
        send("PUT", "teacher", "/courses/" + course + "/modules/1", Map.of("name", "line\nbreak")).statusCode(400)
                .contentType(PROBLEM).body("errors[0].field", equalTo("name"));

        String user = "strict_" + UUID.randomUUID().toString().substring(0, 8);
        send("POST", user, "/users", Map.of("username", user, "email", user + "\u0000@example.com")).statusCode(400)
                .contentType(PROBLEM).body("errors[0].field", equalTo("email"));
        send("POST", user, "/users", Map.of("username", user, "email", user + "@example.com")).statusCode(201);
        send("PUT", user, "/users/" + user + "/addresses/home", Map.of("street", "1 Main St\u001b[31m", "city", "Paris",
                "zip", 75001)).statusCode(400).contentType(PROBLEM).body("errors[0].field", equalTo("street"));

        send("POST", user, "/conversations", Map.of("members", List.of("strict_peer"), "title", "a\u0007b")).statusCode(400)
                .contentType(PROBLEM).body("errors[0].field", equalTo("title"));
        given().contentType(ContentType.JSON).body(Map.of("title", "a\u0000", "body", "x", "private", false))
                .when().post("/pastes").then().statusCode(400).contentType(PROBLEM).body("errors[0].field", equalTo("title"));
        given().header("Authorization", Tokens.bearer("tagger")).contentType(ContentType.JSON)
                .body(Map.of("tags", List.of("jazz"))).when().put("/songs/{a}/Input/x", "Str\u0001ct")
                .then().statusCode(400).contentType(PROBLEM).body("errors[0].field", equalTo("artist"));
    }
}
