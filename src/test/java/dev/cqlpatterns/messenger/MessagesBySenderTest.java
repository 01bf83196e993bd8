package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MessagesBySenderTest {

    @Test
    void should_find_only_messages_the_caller_may_read() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String pair = create(alice, List.of(bob), null);
        String group = create(bob, List.of(alice, carol), null);
        String bobAndCarol = create(bob, List.of(carol), null);
        String m1 = sent(bob, pair, "to alice");
        String m2 = sent(bob, group, "to the group");
        sent(bob, bobAndCarol, "to carol only");
        sent(alice, pair, "from alice");

        bySender(alice, Map.of("sender", bob))
                .then()
                .statusCode(200)
                .body("items.id", containsInAnyOrder(m1, m2))
                .body("items.sender", equalTo(List.of(bob, bob)))
                .body("next", nullValue())
                // the caller's membership set (its generation, its rows), and the two partitions
                // the index found rows in
                .header("X-Partitions-Read", equalTo("4"));
        bySender(carol, Map.of("sender", bob))
                .then()
                .statusCode(200)
                .body("items.content", containsInAnyOrder("to the group", "to carol only"));
        bySender(bob, Map.of("sender", bob))
                .then()
                .statusCode(200)
                .body("items.content", containsInAnyOrder("to alice", "to the group", "to carol only"));
        bySender(user("mallory"), Map.of("sender", bob)).then().statusCode(200).body("items.size()", equalTo(0));

        // Once alice has left the group, its messages are no longer hers to read.
        as(alice)
                .when()
                .delete("/conversations/{id}/members/{u}", group, alice)
                .then()
                .statusCode(204);
        bySender(alice, Map.of("sender", bob)).then().statusCode(200).body("items.id", equalTo(List.of(m1)));
    }

    @Test
    void should_page_with_a_cursor_until_the_last_page_has_no_next() {
        String alice = user("alice");
        String bob = user("bob");
        String pair = create(alice, List.of(bob), null);
        String group = create(bob, List.of(alice, user("carol")), null);
        List<String> sentIds = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            sentIds.add(sent(bob, pair, "pair " + i));
            sentIds.add(sent(bob, group, "group " + i));
        }
        List<String> found = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            var request = as(alice).queryParam("sender", bob).queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.when()
                    .get("/messages")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            found.addAll(page.getList("items.id"));
            cursor = page.getString("next");
            pages++;
        } while (cursor != null && pages < 10);
        assertThat(pages).isEqualTo(3);
        assertThat(found).containsExactlyInAnyOrderElementsOf(sentIds);

        String next = bySender(alice, Map.of("sender", bob, "limit", 2))
                .then()
                .extract()
                .path("next");
        problem(bySender(alice, Map.of("sender", alice, "cursor", next)), 400);
    }

    @Test
    void should_refuse_bad_lookups() {
        String alice = user("alice");
        problem(bySender(alice, Map.of()), 400).body("errors.field", hasItem("sender"));
        problem(bySender(alice, Map.of("sender", "Not Valid")), 400);
        problem(bySender(alice, Map.of("sender", "bob", "cursor", "garbage")), 400);
        problem(bySender(alice, Map.of("sender", "bob", "limit", 501)), 400);
    }

    /** GET /messages as {@code caller} with {@code query}, the answer not yet checked. */
    private static Response bySender(String caller, Map<String, ?> query) {
        return as(caller).queryParams(query).when().get("/messages");
    }
}
