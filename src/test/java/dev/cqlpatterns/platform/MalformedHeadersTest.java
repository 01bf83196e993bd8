package dev.cqlpatterns.platform;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.testsupport.Tokens;
import dev.cqlpatterns.testsupport.fuzz.FuzzRequest;
import dev.cqlpatterns.testsupport.fuzz.FuzzRequest.Header;
import dev.cqlpatterns.testsupport.fuzz.MalformedRequests;
import dev.cqlpatterns.testsupport.fuzz.RawHttp;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Malformed values of every header the service reads, each on an otherwise valid request: never a
 * 5xx, and every 4xx a problem. Accept, Content-Type, Authorization, Idempotency-Key and
 * X-Paste-Secret are refused with a 4xx that says what is wrong; traceparent and X-Forwarded-For,
 * which the service rightly ignores when they do not parse, leave the answer as it was; an Origin
 * that is no allowed origin is refused (CORS: same origin only, unless CORS_ORIGINS lists it).
 * Sent raw ({@link RawHttp}): the contract filter of REST Assured would refuse them first.
 */
@QuarkusTest
class MalformedHeadersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String PASTE = "{\"title\":\"t\",\"body\":\"b\",\"private\":true,\"expiresIn\":\"PT1H\"}";

    private static RawHttp.Answer send(String method, String path, String body, String... headers) throws IOException {
        List<Header> all = new ArrayList<>();
        for (int i = 0; i < headers.length; i += 2) {
            all.add(Header.of(headers[i], headers[i + 1]));
        }
        if (body != null && all.stream().noneMatch(h -> h.name().equalsIgnoreCase("Content-Type"))) {
            all.add(Header.of("Content-Type", "application/json"));
        }
        return new RawHttp("localhost", RestAssured.port)
                .send(new FuzzRequest(
                        method + " " + path,
                        method,
                        path,
                        all,
                        body == null ? null : body.getBytes(StandardCharsets.UTF_8),
                        List.of(),
                        false));
    }

    /** A 4xx problem+json whose status is one of {@code statuses}; its body, parsed. */
    private static JsonNode problem(RawHttp.Answer answer, int... statuses) throws IOException {
        assertThat(answer.status())
                .as(answer.bodyText())
                .isIn(java.util.Arrays.stream(statuses).boxed().toList());
        assertThat(answer.contentType()).startsWith(Problem.MEDIA_TYPE);
        JsonNode body = JSON.readTree(answer.body());
        assertThat(body.path("type").asText()).startsWith("urn:cql-patterns:problem:");
        assertThat(body.path("status").asInt()).isEqualTo(answer.status());
        return body;
    }

    private static boolean ascii(String value) {
        return value.chars().allMatch(c -> c < 0x80);
    }

    static Stream<String> malformedAccept() {
        return MalformedRequests.MALFORMED_ACCEPT.stream();
    }

    @ParameterizedTest
    @MethodSource("malformedAccept")
    void should_answer_a_malformed_accept_with_a_400_naming_it(String accept) throws IOException {
        JsonNode body = problem(send("GET", "/ring", null, "Accept", accept), 400);
        assertThat(body.path("errors").path(0).path("field").asText()).isEqualTo("Accept");
    }

    @Test
    void should_take_accept_lists_that_rfc_9110_allows() throws IOException {
        for (String accept : List.of(
                "application/json;;",
                "application/json, ,",
                "*/*;q=0.5",
                "text/html;q=0.9, application/json;q=0.1",
                "application/json; charset=\"utf-8\"",
                "APPLICATION/JSON")) {
            assertThat(send("GET", "/ring", null, "Accept", accept).status())
                    .as(accept)
                    .isEqualTo(200);
        }
    }

    static Stream<Arguments> ignoredHeaders() {
        return Stream.of("traceparent", "X-Forwarded-For")
                .flatMap(name -> MalformedRequests.MALFORMED_VALUES.stream().map(v -> Arguments.of(name, v)));
    }

    @ParameterizedTest
    @MethodSource("ignoredHeaders")
    void should_answer_as_usual_whatever_an_ignored_header_holds(String name, String value) throws IOException {
        assertThat(send("GET", "/ring", null, name, value).status()).isEqualTo(200);
        String token = Tokens.bearer("headers-" + UUID.randomUUID().toString().substring(0, 8));
        assertThat(send("GET", "/inbox", null, name, value, "Authorization", token)
                        .status())
                .isEqualTo(200);
    }

    static Stream<String> malformedValues() {
        return MalformedRequests.MALFORMED_VALUES.stream();
    }

    @ParameterizedTest
    @MethodSource("malformedValues")
    void should_refuse_a_malformed_origin_with_a_problem(String value) throws IOException {
        problem(send("GET", "/ring", null, "Origin", value), 403, 400);
    }

    @ParameterizedTest
    @MethodSource("malformedValues")
    void should_refuse_a_malformed_authorization_content_type_idempotency_key_or_paste_secret(String value)
            throws IOException {
        problem(send("GET", "/inbox", null, "Authorization", value), 401);
        problem(send("GET", "/inbox", null, "Authorization", "Bearer " + value), 401);
        problem(send("POST", "/pastes", PASTE, "Content-Type", value), 415, 400);
        String id = createdId(
                given().contentType(ContentType.JSON).body(PASTE).when().post("/pastes"));
        problem(send("DELETE", "/pastes/" + id, null, "X-Paste-Secret", value), 403, 400);
        given().when().get("/pastes/{id}", id).then().statusCode(200);
        if (!(value.length() <= 200 && value.chars().allMatch(c -> c > 0x20 && c < 0x7F))) {
            problem(send("POST", "/pastes", PASTE, "Idempotency-Key", value), 400);
        }
    }

    @Test
    void should_keep_nothing_of_a_refused_request() throws IOException {
        String key = UUID.randomUUID().toString();
        problem(send("POST", "/pastes", PASTE, "Idempotency-Key", key, "Accept", ";;;"), 400);
        // The key was never claimed: the same key now creates.
        assertThat(send("POST", "/pastes", PASTE, "Idempotency-Key", key).status())
                .isEqualTo(201);
    }
}
