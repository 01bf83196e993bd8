package dev.cqlpatterns.platform.http;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.testsupport.SignUp;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The one rule for control characters (Text): free text (message content, post and comment bodies,
 * paste bodies) refuses every control character but tab, line feed and carriage return, and a
 * one-line field (here an attachment name) refuses them all; each refusal is a 400 problem naming
 * the field, and nothing is stored.
 */
@QuarkusTest
class ControlCharactersTest {
    private static final String FREE_TEXT = "line one\n\tline two\r\nend";

    /** NUL, ESC (C0), DEL, NEL (C1). */
    @ParameterizedTest
    @ValueSource(strings = {"\u0000", "\u001B", "\u007F", "\u0085"})
    void should_refuse_a_control_character_in_free_text_and_keep_tab_and_line_breaks(String control) {
        String alice = SignUp.user("alice-" + UUID.randomUUID().toString().substring(0, 8));
        String bob = SignUp.user("bob-" + UUID.randomUUID().toString().substring(0, 8));
        String conversation = createdId(as(alice)
                .contentType(ContentType.JSON)
                .body(Map.of("members", List.of(bob)))
                .post("/conversations"));
        String messages = "/conversations/" + conversation + "/messages";
        refused(
                as(alice)
                        .contentType(ContentType.JSON)
                        .body(Map.of("content", "a" + control + "b"))
                        .post(messages)
                        .then(),
                "content");
        as(alice)
                .contentType(ContentType.JSON)
                .body(Map.of("content", FREE_TEXT))
                .post(messages)
                .then()
                .statusCode(201);
        refused(
                as(alice)
                        .contentType(ContentType.JSON)
                        .body(Map.of(
                                "content",
                                "hi",
                                "attachments",
                                Map.of("a" + control + "b", "https://example.com/a.png")))
                        .post(messages)
                        .then(),
                "attachments");
        refused(
                as(alice)
                        .contentType(ContentType.JSON)
                        .body(Map.of("content", "hi", "attachments", Map.of("a\nb", "https://example.com/a.png")))
                        .post(messages)
                        .then(),
                "attachments");
        as(alice)
                .queryParam("limit", 10)
                .get(messages)
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(1))
                .body("items[0].content", equalTo(FREE_TEXT));

        refused(
                as(alice)
                        .contentType(ContentType.JSON)
                        .body(Map.of("body", "a" + control + "b"))
                        .post("/posts")
                        .then(),
                "body");
        String post = createdId(as(alice)
                .contentType(ContentType.JSON)
                .body(Map.of("body", FREE_TEXT))
                .post("/posts"));
        refused(
                as(alice)
                        .contentType(ContentType.JSON)
                        .body(Map.of("body", "a" + control + "b"))
                        .post("/posts/" + post + "/comments")
                        .then(),
                "body");
        as(alice)
                .contentType(ContentType.JSON)
                .body(Map.of("body", FREE_TEXT))
                .post("/posts/" + post + "/comments")
                .then()
                .statusCode(201);

        refused(
                given().contentType(ContentType.JSON)
                        .body(Map.of("body", "a" + control + "b", "private", true))
                        .post("/pastes")
                        .then(),
                "body");
        given().contentType(ContentType.JSON)
                .body(Map.of("body", FREE_TEXT, "private", true))
                .post("/pastes")
                .then()
                .statusCode(201);
    }

    private static RequestSpecification as(String username) {
        return given().header("Authorization", Tokens.bearer(username));
    }

    private static void refused(ValidatableResponse response, String field) {
        response.statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body(containsString(field))
                .body(containsString("control characters"));
    }
}
