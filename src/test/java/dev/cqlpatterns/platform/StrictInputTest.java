package dev.cqlpatterns.platform;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.testsupport.SignUp;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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

    private static ValidatableResponse send(String method, String user, String path, Object body) {
        return given().header("Authorization", Tokens.bearer(user))
                .contentType(ContentType.JSON)
                .body(body)
                .when()
                .request(method, path)
                .then();
    }

    /** Signs {@code user} up (201), then answers their PUT of {@code address} as their home address. */
    private static ValidatableResponse newUsersHome(String user, Map<String, ?> address) {
        send("POST", user, "/users", Map.of("username", user, "email", user + "@example.com"))
                .statusCode(201);
        return send("PUT", user, "/users/" + user + "/addresses/home", address);
    }

    @Test
    void should_refuse_values_of_the_wrong_json_type_and_keep_what_was_stored() {
        String course = "strict-" + UUID.randomUUID().toString().substring(0, 8);
        send("PUT", "teacher", "/courses/" + course, Map.of("name", "Data modelling"))
                .statusCode(200);
        for (Object name : List.of(5, true, -1, 1.5e300)) {
            problem(send("PUT", "teacher", "/courses/" + course, Map.of("name", name)), 400, "name");
        }
        given().when().get("/courses/" + course).then().statusCode(200).body("name", equalTo("Data modelling"));

        String path = "/songs/Strict/Input/" + course;
        send("PUT", "tagger", path, Map.of("tags", List.of("jazz"))).statusCode(201);
        problem(send("PUT", "tagger", path, Map.of("tags", List.of(1, 2))), 400);
        given().when().get(path).then().statusCode(200).body("tags", equalTo(List.of("jazz")));

        String user = "strict_" + UUID.randomUUID().toString().substring(0, 8);
        problem(
                send("POST", user, "/users", Map.of("username", user, "email", user + "@example.com", "age", 30.7)),
                400,
                "age");
        problem(
                send("POST", user, "/users", Map.of("username", user, "email", user + "@example.com", "age", "30")),
                400,
                "age");
        problem(newUsersHome(user, Map.of("street", "1 Main St", "city", "Paris", "zip", "75001")), 400, "zip");
        problem(
                given().contentType(ContentType.JSON)
                        .body(Map.of("body", "x", "private", 1))
                        .when()
                        .post("/pastes"),
                400,
                "private");
    }

    @Test
    void should_refuse_control_characters_in_one_line_fields() {
        String course = "strict-" + UUID.randomUUID().toString().substring(0, 8);
        problem(send("PUT", "teacher", "/courses/" + course, Map.of("name", "a\u0000b")), 400, "name");
        send("PUT", "teacher", "/courses/" + course, Map.of("name", "Intro")).statusCode(200);
        problem(
                send("PUT", "teacher", "/courses/" + course + "/modules/1", Map.of("name", "line\nbreak")),
                400,
                "name");

        String user = "strict_" + UUID.randomUUID().toString().substring(0, 8);
        problem(
                send("POST", user, "/users", Map.of("username", user, "email", user + "\u0000@example.com")),
                400,
                "email");
        problem(
                newUsersHome(user, Map.of("street", "1 Main St\u001b[31m", "city", "Paris", "zip", 75001)),
                400,
                "street");

        problem(
                send("POST", user, "/conversations", Map.of("members", List.of("strict_peer"), "title", "a\u0007b")),
                400,
                "title");
        problem(
                given().contentType(ContentType.JSON)
                        .body(Map.of("title", "a\u0000", "body", "x", "private", false))
                        .when()
                        .post("/pastes"),
                400,
                "title");
        problem(
                given().header("Authorization", Tokens.bearer("tagger"))
                        .contentType(ContentType.JSON)
                        .body(Map.of("tags", List.of("jazz")))
                        .when()
                        .put("/songs/{a}/Input/x", "Str\u0001ct"),
                400,
                "artist");
    }

    @Test
    void should_refuse_control_characters_at_the_ends_of_one_line_fields_rather_than_strip_them() {
        // found by FuzzTest: "\r\njazz" was stripped to "jazz", and a DELETE removed the song's real tag
        String path = "/songs/Strict/Ends/" + UUID.randomUUID().toString().substring(0, 8);
        send("PUT", "tagger", path, Map.of("tags", List.of("jazz"))).statusCode(201);
        problem(
                given().urlEncodingEnabled(false)
                        .header("Authorization", Tokens.bearer("tagger"))
                        .when()
                        .delete(path + "/tags/%0D%0Ajazz"),
                400,
                "tag");
        problem(send("PUT", "tagger", path, Map.of("tags", List.of("\tmodal"))), 400, "tags[0]");
        given().when().get(path).then().statusCode(200).body("tags", equalTo(List.of("jazz")));

        String alice = "strict_" + UUID.randomUUID().toString().substring(0, 8);
        problem(
                send("POST", alice, "/conversations", Map.of("members", List.of("strict_peer"), "title", "\tTrip\n")),
                400,
                "title");
    }

    private static String paste(String body) {
        return createdId(given().contentType(ContentType.JSON)
                .body(Map.of("body", body, "private", false))
                .when()
                .post("/pastes"));
    }

    private static ValidatableResponse postPaste(String json) {
        return given().contentType(ContentType.JSON)
                .body(json.getBytes(StandardCharsets.UTF_8))
                .when()
                .post("/pastes")
                .then();
    }

    @Test
    void should_refuse_a_body_that_is_not_exactly_one_strict_json_document() {
        postPaste("{\"body\":\"a\",\"body\":\"b\",\"private\":false}")
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("errors[0].field", equalTo("body"))
                .body("detail", containsString("more than once"));
        postPaste("{\"body\":\"a\",\"private\":false}garbage").statusCode(400).contentType(Problem.MEDIA_TYPE);
        postPaste("{\"body\":\"a\",\"private\":false}{\"body\":\"b\",\"private\":false}")
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("detail", containsString("exactly one JSON document"));
        // a misspelt expiresIn must not make a paste that never expires
        postPaste("{\"body\":\"a\",\"private\":false,\"expiresin\":\"PT1M\"}")
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("errors[0].field", equalTo("expiresin"));
        postPaste("{\"body\":\"a\\ud800b\",\"private\":false}")
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("errors[0].field", equalTo("body"));
    }

    @Test
    void should_refuse_a_body_that_is_not_well_formed_utf8() {
        byte[] overlong = "{\"body\":\"a__b\",\"private\":false}".getBytes(StandardCharsets.US_ASCII);
        int at = new String(overlong, StandardCharsets.US_ASCII).indexOf("__");
        overlong[at] = (byte) 0xC0; // C0 AF: an overlong "/"
        overlong[at + 1] = (byte) 0xAF;
        problem(given().contentType(ContentType.JSON).body(overlong).when().post("/pastes"), 400)
                .body("detail", containsString("UTF-8"));
    }

    @Test
    void should_refuse_a_body_without_a_content_type() throws Exception {
        // REST Assured always sends one, so the JDK's client sends the request as is
        HttpResponse<String> answer = HttpClient.newHttpClient()
                .send(
                        HttpRequest.newBuilder(URI.create("http://localhost:" + RestAssured.port + "/pastes"))
                                .POST(HttpRequest.BodyPublishers.ofString("{\"body\":\"a\",\"private\":false}"))
                                .build(),
                        HttpResponse.BodyHandlers.ofString());
        assertThat(answer.statusCode()).isEqualTo(415);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue(Problem.MEDIA_TYPE);
    }

    @Test
    void should_refuse_ids_and_numbers_written_with_other_unicode_digits() {
        String id = paste("digits");
        String fullwidth = id.chars()
                .mapToObj(c ->
                        c >= '0' && c <= '9' ? String.valueOf((char) ('\uFF10' + c - '0')) : String.valueOf((char) c))
                .reduce("", String::concat);
        problem(given().when().get("/pastes/" + fullwidth), 400);
        problem(given().when().delete("/pastes/" + fullwidth), 400);
        problem(given().queryParam("limit", "\u0665").when().get("/pastes"), 400);
        given().when().get("/pastes/" + id).then().statusCode(200).body("body", equalTo("digits"));
    }

    @Test
    void should_refuse_a_url_whose_escapes_are_not_utf8_and_store_nothing() {
        problem(
                        given().urlEncodingEnabled(false)
                                .header("Authorization", Tokens.bearer("tagger"))
                                .contentType(ContentType.JSON)
                                .body(Map.of("tags", List.of("jazz")))
                                .when()
                                .put("/songs/Bad%FFUtf8/Album/Song"),
                        400)
                .body("detail", containsString("UTF-8"));
        given().urlEncodingEnabled(false)
                .when()
                .get("/songs/Bad%EF%BF%BDUtf8/Album/Song")
                .then()
                .statusCode(404);
    }

    @Test
    void should_refuse_a_request_that_accepts_no_json_before_acting_on_it() {
        String body = given().contentType(ContentType.JSON)
                .body(Map.of("body", "keep me", "private", false))
                .when()
                .post("/pastes")
                .then()
                .statusCode(201)
                .extract()
                .asString();
        String id = io.restassured.path.json.JsonPath.from(body).getString("id");
        String secret = io.restassured.path.json.JsonPath.from(body).getString("secret");
        problem(
                given().accept("application/xml")
                        .header("X-Paste-Secret", secret)
                        .when()
                        .delete("/pastes/" + id),
                406);
        given().when().get("/pastes/" + id).then().statusCode(200).body("body", equalTo("keep me"));
    }

    @Test
    void should_refuse_an_empty_idempotency_key() {
        String alice = SignUp.user("strict_" + UUID.randomUUID().toString().substring(0, 8));
        String peer = SignUp.user("strict_" + UUID.randomUUID().toString().substring(0, 8));
        String id = send("POST", alice, "/conversations", Map.of("members", List.of(peer)))
                .statusCode(201)
                .extract()
                .path("id");
        for (String key : List.of("", " ", "a b")) {
            problem(
                            given().header("Authorization", Tokens.bearer(alice))
                                    .header("Idempotency-Key", key)
                                    .contentType(ContentType.JSON)
                                    .body(Map.of("content", "hi"))
                                    .when()
                                    .post("/conversations/{id}/messages", id),
                            400)
                    .body("detail", containsString("Idempotency-Key"));
        }
        given().header("Authorization", Tokens.bearer(alice))
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body("items", hasSize(0));
    }

    @Test
    void should_refuse_a_time_slice_no_timeuuid_can_hold() {
        String course = "strict-" + UUID.randomUUID().toString().substring(0, 8);
        send("PUT", "teacher", "/courses/" + course, Map.of("name", "Slices")).statusCode(200);
        problem(
                given().queryParam("to", "+1000000-01-01T00:00:00Z").when().get("/courses/{c}/views", course),
                400,
                "to");
    }

    @Test
    void should_echo_a_caller_s_text_in_a_problem_only_cut_to_its_limit_and_on_one_line() {
        // An unknown property is named back: here 5,000 characters with a bell, an escape and a line feed in them
        // (JSON escapes, as a client sends them).
        String name = "x\\u0007\\u001b[31m\\n" + "y".repeat(5_000);
        io.restassured.path.json.JsonPath problem = problem(
                        given().contentType(ContentType.JSON)
                                .body("{\"body\":\"b\",\"private\":true,\"" + name + "\":1}")
                                .when()
                                .post("/pastes"),
                        400)
                .extract()
                .jsonPath();
        String detail = problem.getString("detail");
        String field = problem.getString("errors[0].field");
        assertThat(detail.codePointCount(0, detail.length()))
                .as("detail, in code points")
                .isLessThanOrEqualTo(1_000);
        assertThat(field.codePointCount(0, field.length()))
                .as("field, in code points")
                .isLessThanOrEqualTo(256);
        assertThat(detail + field)
                .as("detail and field")
                .doesNotContainPattern("[\\x00-\\x1F\\x7F-\\x9F]")
                .contains("x\uFFFD\uFFFD[31m\uFFFDyyy");
    }
}
