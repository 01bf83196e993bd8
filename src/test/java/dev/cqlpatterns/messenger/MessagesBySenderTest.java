package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsInAnyOrder;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.platform.errors.Problem;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import java.util.ArrayList;
import java.util.List;
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

        as(alice)
                .queryParam("sender", bob)
                .when()
                .get("/messages")
                .then()
                .statusCode(200)
                .body("items.id", containsInAnyOrder(m1, m2))
                .body("items.sender", equalTo(List.of(bob, bob)))
                .body("next", nullValue())
                // the inbox partition, and the two partitions the index found rows in
                .header("X-Partitions-Read", equalTo("3"));
        as(carol)
                .queryParam("sender", bob)
                .when()
                .get("/messages")
                .then()
                .statusCode(200)
                .body("items.content", containsInAnyOrder("to the group", "to carol only"));
        as(bob).queryParam("sender", bob)
                .when()
                .get("/messages")
                .then()
                .statusCode(200)
                .body("items.content", containsInAnyOrder("to alice", "to the group", "to carol only"));
        as(user("mallory"))
                .queryParam("sender", bob)
                .when()
                .get("/messages")
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(0));

        // Once alice has left the group, its messages are no longer hers to read.
        as(alice)
                .when()
                .delete("/conversations/{id}/members/{u}", group, alice)
                .then()
                .statusCode(204);
        as(alice)
                .queryParam("sender", bob)
                .when()
                .get("/messages")
                .then()
                .statusCode(200)
                .body("items.id", equalTo(List.of(m1)));
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

        String next = as(alice)
                .queryParam("sender", bob)
                .queryParam("limit", 2)
                .when()
                .get("/messages")
                .then()
                .extract()
                .path("next");
        as(alice)
                .queryParam("sender", alice)
                .queryParam("cursor", next)
                .when()
                .get("/messages")
                .then()
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE);
    }

    @Test
    void should_refuse_bad_lookups() {
        String alice = user("alice");
        as(alice)
                .when()
                .get("/messages")
                .then()
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("errors.field", hasItem("sender"));
        as(alice)
                .queryParam("sender", "Not Valid")
                .when()
                .get("/messages")
                .then()
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE);
        as(alice)
                .queryParam("sender", "bob")
                .queryParam("cursor", "garbage")
                .when()
                .get("/messages")
                .then()
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE);
        as(alice)
                .queryParam("sender", "bob")
                .queryParam("limit", 501)
                .when()
                .get("/messages")
                .then()
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE);
    }
}
