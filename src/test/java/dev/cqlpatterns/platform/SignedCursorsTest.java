package dev.cqlpatterns.platform;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.testsupport.SignUp;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A cursor signed with the service's own key but holding what no page ever wrote (fields missing,
 * of the wrong type, null, out of range, a driver paging state that is no paging state) is a 400
 * bad-cursor on every list route, never a 500: the key can leak, or a bug can write such a cursor.
 */
@QuarkusTest
class SignedCursorsTest {

    @Inject
    Cursors cursors;

    /** A list route, the scope its cursors are signed for, and payloads a page never writes. */
    private record ListRoute(String path, String scope, String user, List<Object> odd) {}

    private static Map<String, Object> of(Object... keysAndValues) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    @Test
    void should_refuse_a_signed_cursor_whose_content_no_page_wrote_on_every_list() {
        String me = SignUp.user("cursor_" + UUID.randomUUID().toString().substring(0, 8));
        String peer = SignUp.user("cursor_" + UUID.randomUUID().toString().substring(0, 8));
        String conversation = createdId(given().header("Authorization", Tokens.bearer(me))
                .contentType(ContentType.JSON)
                .body(Map.of("members", List.of(peer)))
                .when()
                .post("/conversations"));
        String post = createdId(given().header("Authorization", Tokens.bearer(me))
                .contentType(ContentType.JSON)
                .body(Map.of("body", "cursor test"))
                .when()
                .post("/posts"));
        String course = "cursor-" + UUID.randomUUID().toString().substring(0, 8);
        given().header("Authorization", Tokens.bearer(me))
                .contentType(ContentType.JSON)
                .body(Map.of("name", "Cursors"))
                .when()
                .put("/courses/" + course)
                .then()
                .statusCode(200);
        String group = "cursor-" + UUID.randomUUID().toString().substring(0, 8);
        given().header("Authorization", Tokens.bearer(me))
                .when()
                .put("/groups/{g}/members/{u}", group, me)
                .then()
                .statusCode(201);

        List<ListRoute> routes = List.of(
                new ListRoute(
                        "/songs?tag=jazz",
                        "songs-by-tag:jazz",
                        null,
                        List.of(of("artist", null, "album", "a", "song", "s"))),
                new ListRoute(
                        "/clicks",
                        "clicks::",
                        null,
                        List.of(
                                of("month", Integer.MAX_VALUE, "last", null),
                                of("month", -1, "last", UUID.randomUUID()))),
                new ListRoute("/posts/" + post, "post-comments:" + post, null, List.of(of("before", null))),
                new ListRoute(
                        "/courses/" + course + "/views",
                        "course-views:" + course + "::",
                        null,
                        List.of(of("day", Integer.MIN_VALUE, "last", null))),
                new ListRoute(
                        "/pastes",
                        "pastes:latest",
                        null,
                        List.of(
                                of("day", 0, "createdAt", null, "id", null),
                                of("day", 99999999, "createdAt", "2020-01-01T00:00:00Z", "id", UUID.randomUUID()))),
                new ListRoute(
                        "/groups/" + group + "/members/latest",
                        "group-latest:" + group,
                        me,
                        List.of(of("day", -5, "joined", null))),
                new ListRoute(
                        "/groups/" + group + "/members", "group-members:" + group, me, List.of(of("after", null))),
                new ListRoute(
                        "/messages?sender=" + peer,
                        "by-sender:" + me + ":" + peer,
                        me,
                        List.of(of("pagingState", "AAAA"), of("pagingState", "not base64 at all"))),
                new ListRoute(
                        "/conversations/" + conversation + "/messages",
                        "history:" + conversation + ":null:null",
                        me,
                        List.of(
                                of("bucket", -1, "after", null),
                                of("bucket", Integer.MAX_VALUE, "after", UUID.randomUUID()))),
                new ListRoute(
                        "/inbox",
                        "inbox:" + me,
                        me,
                        List.of(
                                of("lastAt", "2020-01-01T00:00:00Z", "conversationId", "not-a-uuid"),
                                of("lastAt", null, "conversationId", null))));

        for (ListRoute route : routes) {
            // no page writes these: always refused
            for (Object payload : List.of(Map.of(), Map.of("unexpected", 1), List.of(), "text", 42)) {
                get(route, payload)
                        .statusCode(400)
                        .contentType(Problem.MEDIA_TYPE)
                        .body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
            }
            // odd but well-typed positions (a far bucket, say) may find nothing; they never fail
            for (Object payload : route.odd()) {
                int status = get(route, payload).extract().statusCode();
                assertThat(status).as("%s with %s", route.path(), payload).isIn(200, 400);
                if (status == 400) {
                    get(route, payload)
                            .contentType(Problem.MEDIA_TYPE)
                            .body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
                }
            }
        }
    }

    private ValidatableResponse get(ListRoute route, Object payload) {
        var request = given().noFilters().queryParam("cursor", cursors.encode(route.scope(), payload));
        if (route.user() != null) {
            request = request.header("Authorization", Tokens.bearer(route.user()));
        }
        return request.when().get(route.path()).then();
    }
}
