package dev.cqlpatterns.platform.http;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * One rule for lengths (Text.length): a limit counts code points, as the contract's maxLength does,
 * whether a bean constraint or the handler checks it. An emoji outside the Basic Multilingual Plane
 * is one character, though Java holds it in two UTF-16 units.
 */
@QuarkusTest
class LengthsTest {
    private static final String EMOJI = "\uD83D\uDE00";

    @Test
    void a_paste_title_should_count_characters_not_utf16_units() {
        String title = EMOJI.repeat(200);
        String id = createdId(given().contentType(ContentType.JSON)
                .body(Map.of("title", title, "body", "b", "private", true))
                .post("/pastes"));
        given().get("/pastes/" + id).then().statusCode(200).body("title", equalTo(title));
        problem(
                        given().contentType(ContentType.JSON)
                                .body(Map.of("title", title + EMOJI, "body", "b", "private", true))
                                .post("/pastes"),
                        400)
                .body(containsString("title"));
    }

    @Test
    void a_course_name_should_count_characters_not_utf16_units() {
        String owner = "lengths-" + UUID.randomUUID().toString().substring(0, 8);
        String course = "/courses/length-" + UUID.randomUUID().toString().substring(0, 8);
        String name = EMOJI.repeat(200);
        given().header("Authorization", Tokens.bearer(owner))
                .contentType(ContentType.JSON)
                .body(Map.of("name", name))
                .put(course)
                .then()
                .statusCode(200)
                .body("name", equalTo(name));
        problem(
                        given().header("Authorization", Tokens.bearer(owner))
                                .contentType(ContentType.JSON)
                                .body(Map.of("name", name + EMOJI))
                                .put(course),
                        400)
                .body(containsString("name"));
    }
}
