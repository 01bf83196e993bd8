package dev.cqlpatterns.groups;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.testsupport.Callers;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@QuarkusTest
class GroupMembersTest {

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    static void createUser(String username, Integer age) {
        Callers.json(username, Map.of("username", username, "email", username + "@example.com", "age", age))
                .when()
                .post("/users")
                .then()
                .statusCode(201);
    }

    static Response join(String caller, String group, String username) {
        return Callers.as(caller).when().put("/groups/{g}/members/{u}", group, username);
    }

    static Response leave(String caller, String group, String username) {
        return Callers.as(caller).when().delete("/groups/{g}/members/{u}", group, username);
    }

    static Response members(String group, Integer limit, String cursor) {
        var request = Callers.as("reader");
        if (limit != null) {
            request.queryParam("limit", limit);
        }
        if (cursor != null) {
            request.queryParam("cursor", cursor);
        }
        return request.when().get("/groups/{g}/members", group);
    }

    static Response latest(String group, Map<String, ?> query) {
        return Callers.as("reader").queryParams(query).when().get("/groups/{g}/members/latest", group);
    }

    /** Asserts the group's members list (one page) and its latest list each hold {@code size}; answers the latter. */
    private static ValidatableResponse bothListsHold(String group, int size) {
        members(group, null, null)
                .then()
                .statusCode(200)
                .body("items", hasSize(size))
                .body("next", nullValue());
        return latest(group, Map.of()).then().statusCode(200).body("items", hasSize(size));
    }

    @Test
    void should_list_a_big_group_in_username_order_across_its_buckets() {
        String group = unique("big-");
        String prefix = unique("m");
        List<String> names = IntStream.range(0, 60)
                .mapToObj(i -> prefix + "-" + UUID.randomUUID().toString().substring(0, 6))
                .toList();
        for (int i = 0; i < names.size(); i++) {
            createUser(names.get(i), 20 + i % 50);
            join(names.get(i), group, names.get(i)).then().statusCode(201);
        }
        Set<Integer> buckets = names.stream().map(n -> Groups.bucketOf(n, 16)).collect(Collectors.toSet());
        assertThat(buckets)
                .as("60 members spread over several of the 16 partitions")
                .hasSizeGreaterThan(8);

        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Response page = members(group, 10, cursor);
            page.then().statusCode(200).header("X-Partitions-Read", "18").body("items", hasSize(10));
            List<String> usernames = page.jsonPath().getList("items.username");
            assertThat(usernames.stream()
                            .map(n -> Groups.bucketOf(n, 16))
                            .distinct()
                            .count())
                    .as("one page merges members of several partitions")
                    .isGreaterThan(1);
            seen.addAll(usernames);
            cursor = page.jsonPath().getString("next");
            pages++;
        } while (cursor != null);
        assertThat(pages).isEqualTo(6);
        assertThat(seen).isEqualTo(names.stream().sorted().toList());

        String first = names.stream().sorted().findFirst().orElseThrow();
        members(group, 1, null).then().body("items[0].username", equalTo(first));
    }

    @Test
    void should_join_once_and_leave() {
        String group = unique("club-");
        String pat = unique("pat");
        createUser(pat, 30);
        String joinedAt = join(pat, group, pat)
                .then()
                .statusCode(201)
                .body("username", equalTo(pat))
                .extract()
                .path("joinedAt");
        join(pat, group, pat).then().statusCode(200).body("joinedAt", equalTo(joinedAt));
        bothListsHold(group, 1).body("items[0].joinedAt", equalTo(joinedAt));

        leave(pat, group, pat).then().statusCode(204);
        bothListsHold(group, 0);
        problem(leave(pat, group, pat), 404);
    }

    @Test
    void should_let_callers_join_and_leave_only_as_themselves() {
        String group = unique("club-");
        String quinn = unique("quinn");
        createUser(quinn, 30);
        problem(join("mallory", group, quinn), 403);
        join(quinn, group, quinn).then().statusCode(201);
        problem(leave("mallory", group, quinn), 403);
        problem(given().when().put("/groups/{g}/members/{u}", group, quinn), 401);
        members(group, null, null).then().body("items.username", equalTo(List.of(quinn)));
    }

    @Test
    void should_answer_404_for_unknown_groups_users_and_memberships() {
        String group = unique("nothing-");
        problem(members(group, null, null), 404);
        problem(latest(group, Map.of()), 404);
        String sam = unique("sam");
        problem(join(sam, group, sam), 404);
        problem(leave(sam, group, sam), 404);
    }

    @Test
    void should_refuse_bad_group_names_limits_and_cursors() {
        String group = unique("club-");
        String tess = unique("tess");
        createUser(tess, 22);
        problem(join(tess, "Not A Group", tess), 400, "group");
        problem(join(tess, "x".repeat(65), tess), 400);
        join(tess, group, tess).then().statusCode(201);
        problem(members(group, 0, null), 400);
        problem(members(group, 501, null), 400);
        problem(members(group, 10, "garbage"), 400).body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
        problem(latest(group, Map.of("cursor", "garbage")), 400);

        // A cursor of another group's list does not page this one.
        String other = unique("club-");
        String uma = unique("uma");
        String vic = unique("vic");
        for (String name : List.of(uma, vic)) {
            createUser(name, 22);
            join(name, other, name).then().statusCode(201);
        }
        String foreign =
                members(other, 1, null).then().statusCode(200).extract().path("next");
        problem(members(group, 1, foreign), 400);
    }
}
