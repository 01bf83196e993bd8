package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.history;
import static dev.cqlpatterns.messenger.Chat.inboxPage;
import static dev.cqlpatterns.messenger.Chat.markRead;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.timeOf;
import static dev.cqlpatterns.messenger.Chat.user;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.testsupport.Concurrently;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class InboxTest {
    @Test
    void should_list_conversations_most_recent_first() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String withBob = create(alice, List.of(bob), null);
        String group = create(carol, List.of(alice, bob), "Trip");
        String quiet = create(alice, List.of(carol), null);

        String first = sent(bob, withBob, "Hi alice");
        sent(alice, group, "Hello trip");
        String last = sent(bob, withBob, "x".repeat(150));

        // Alice's first read completes her index (cql/015_inbox_by_day.cql): her days, today's rows and their
        // summaries (which say the index is not complete), every summary, the batch of today's rows and
        // days_indexed, and the message after withBob's read_up_to (messages_by_previous: its first unread).
        as(alice)
                .when()
                .get("/inbox")
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", equalTo("5"))
                .header("X-Statements", equalTo("7"))
                .body("items.conversationId", equalTo(List.of(withBob, group, quiet)));
        as(alice)
                .when()
                .get("/inbox")
                .then()
                .statusCode(200)
                // Her days, today's rows, their summaries, and the first unread message of the one
                // conversation with more than its last message unread (messages_by_previous, cql/061).
                .header("X-Partitions-Read", equalTo("4"))
                .header("X-Statements", equalTo("4"))
                .body("items.conversationId", equalTo(List.of(withBob, group, quiet)))
                .body("items[0].kind", equalTo("direct"))
                .body("items[0].partner", equalTo(bob))
                .body("items[0].lastSender", equalTo(bob))
                .body("items[0].lastMessageId", equalTo(last))
                .body("items[0].lastMessage", equalTo("x".repeat(99) + "…"))
                .body("items[0].lastMessage.length()", equalTo(100))
                .body("items[0].lastAt", equalTo(timeOf(last)))
                .body("items[0].unreadCount", equalTo(2))
                .body("items[0].firstUnreadAt", equalTo(timeOf(first)))
                .body("items[1].kind", equalTo("group"))
                .body("items[1].title", equalTo("Trip"))
                .body("items[1].partner", nullValue())
                .body("items[1].lastSender", equalTo(alice))
                .body("items[1].lastMessage", equalTo("Hello trip"))
                // The sender's own message is not unread for them.
                .body("items[1].unreadCount", equalTo(0))
                .body("items[1].firstUnreadAt", nullValue())
                .body("items[2].lastMessage", nullValue())
                .body("items[2].lastAt", notNullValue())
                .body("items[2].unreadCount", equalTo(0));

        Map<String, Object> bobsView = Chat.inboxEntry(bob, group);
        assertThat(bobsView).containsEntry("unreadCount", 1).containsEntry("lastMessage", "Hello trip");
    }

    @Test
    void should_page_through_the_inbox() {
        String alice = user("alice");
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            String id = create(user("friend" + i), List.of(alice), null);
            sent(alice, id, "message " + i);
            expected.add(0, id);
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            // Every page: the days, today's rows and their summaries, nothing unread; the first also every
            // summary (it completes the index).
            String partitions = seen.isEmpty() ? "4" : "3";
            var request = as(alice).queryParam("limit", 2);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.when()
                    .get("/inbox")
                    .then()
                    .statusCode(200)
                    .header("X-Partitions-Read", equalTo(partitions))
                    .extract()
                    .jsonPath();
            seen.addAll(page.getList("items.conversationId"));
            cursor = page.getString("next");
        } while (cursor != null);
        assertThat(seen).isEqualTo(expected);

        problem(inboxPage(alice, Map.of("limit", 501)), 400);
        problem(inboxPage(alice, Map.of("cursor", "not-a-cursor")), 400);
        // Another user's cursor does not page through this inbox.
        String bob = user("bob");
        create(bob, List.of(user("x")), null);
        create(bob, List.of(user("y")), null);
        String bobs = inboxPage(bob, Map.of("limit", 1))
                .then()
                .statusCode(200)
                .extract()
                .path("next");
        problem(inboxPage(alice, Map.of("cursor", bobs)), 400);
    }

    @Test
    void should_reset_unread_and_append_readers_to_seen_by_once_in_order() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String id = create(alice, List.of(bob, carol), null);
        sent(alice, id, "one");
        sent(alice, id, "two");
        sent(bob, id, "three");

        markRead(carol, id)
                .statusCode(200)
                .body("conversationId", equalTo(id))
                .body("readAt", notNullValue())
                .body("markedSeen", equalTo(3));
        markRead(bob, id).statusCode(200).body("markedSeen", equalTo(2)); // not his own message
        markRead(bob, id).statusCode(200).body("markedSeen", equalTo(0));

        history(alice, id, Map.of())
                .then()
                .statusCode(200)
                .body("items.content", equalTo(List.of("three", "two", "one")))
                .body("items[0].seenBy", equalTo(List.of(carol)))
                .body("items[1].seenBy", equalTo(List.of(carol, bob)))
                .body("items[2].seenBy", equalTo(List.of(carol, bob)));
        Chat.assertUnread(bob, id, 0, null);
        assertThat(Chat.inboxEntry(carol, id)).containsEntry("unreadCount", 0);
        // Read up to the last message: nothing to find (her days, today's rows, their summaries).
        as(carol).when().get("/inbox").then().statusCode(200).header("X-Statements", equalTo("3"));
        assertThat(Chat.inboxEntry(alice, id)).containsEntry("unreadCount", 1);

        // What comes after a mark-read is unread again.
        String four = sent(alice, id, "four");
        Chat.assertUnread(bob, id, 1, four);
        markRead(alice, id).statusCode(200).body("markedSeen", equalTo(1));
        assertThat(Chat.inboxEntry(alice, id)).containsEntry("unreadCount", 0);
    }

    @Test
    void should_add_a_reader_once_when_their_mark_reads_race() {
        String alice = user("alice");
        String bob = user("bob");
        String id = create(alice, List.of(bob), null);
        for (int i = 0; i < 30; i++) {
            sent(alice, id, "m" + i);
        }
        // No lease: every call succeeds (each may count the messages it found), and bob is in seenBy once.
        List<Response> answers = Concurrently.run(
                List.of(1, 2, 3, 4), i -> markRead(bob, id).extract().response());
        assertThat(answers)
                .allSatisfy(answer ->
                        assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(200));
        List<List<String>> seenBy = seenBy(alice, id);
        assertThat(seenBy).hasSize(30).allSatisfy(list -> assertThat(list).containsExactly(bob));
        assertThat(Chat.inboxEntry(bob, id)).containsEntry("unreadCount", 0);
    }

    @Test
    void should_add_every_member_when_several_mark_read_at_once() {
        String alice = user("alice");
        List<String> readers = List.of(user("bob"), user("carol"), user("dave"), user("erin"), user("frank"));
        String id = create(alice, readers, null);
        for (int i = 0; i < 20; i++) {
            sent(alice, id, "m" + i);
        }
        List<Response> answers = Concurrently.run(
                readers, reader -> markRead(reader, id).extract().response());
        assertThat(answers)
                .allSatisfy(answer ->
                        assertThat(answer.statusCode()).as(answer.asString()).isEqualTo(200));
        List<List<String>> seenBy = seenBy(alice, id);
        assertThat(seenBy)
                .hasSize(20)
                .allSatisfy(list -> assertThat(list).containsExactlyInAnyOrderElementsOf(readers));
        // Every message lists its readers in one order: the order they read in.
        assertThat(seenBy).allSatisfy(list -> assertThat(list).isEqualTo(seenBy.get(0)));
        readers.forEach(reader -> assertThat(Chat.inboxEntry(reader, id)).containsEntry("unreadCount", 0));
    }

    @Test
    void should_change_nothing_when_a_mark_read_is_repeated() {
        String alice = user("alice");
        List<String> readers = List.of(user("bob"), user("carol"));
        String bob = readers.get(0);
        String carol = readers.get(1);
        String id = create(alice, readers, null);
        sent(alice, id, "one");
        markRead(bob, id).statusCode(200).body("markedSeen", equalTo(1));
        markRead(carol, id).statusCode(200).body("markedSeen", equalTo(1));
        List<Object> before = history(alice, id, Map.of())
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
        markRead(bob, id).statusCode(200).body("markedSeen", equalTo(0));
        history(alice, id, Map.of())
                .then()
                .statusCode(200)
                .body("items", equalTo(before))
                .body("items[0].seenBy", equalTo(List.of(bob, carol)));
        assertThat(Chat.inboxEntry(bob, id)).containsEntry("unreadCount", 0);
    }

    @Test
    void should_refuse_mark_read_of_a_conversation_one_is_not_in() {
        String alice = user("alice");
        String id = create(alice, List.of(user("bob")), null);
        problem(markRead(user("mallory"), id), 404);
        problem(markRead(alice, UUID.randomUUID().toString()), 404);
    }

    /** The seenBy list of each message of conversation {@code id} (up to 100), newest first, as {@code caller} reads it. */
    private static List<List<String>> seenBy(String caller, String id) {
        return history(caller, id, Map.of("limit", 100))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.seenBy");
    }
}
