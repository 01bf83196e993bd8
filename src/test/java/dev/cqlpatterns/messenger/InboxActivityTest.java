package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.time.TimeUuids;
import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.Pages;
import dev.cqlpatterns.testsupport.StoredRows;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * The inbox read through inbox_by_activity (cql/014_inbox_by_activity.cql): the order of last
 * activity across conversations, superseded and orphaned index rows, paging, leaves, and the first
 * read of a user whose summaries were written before the index existed.
 */
@QuarkusTest
class InboxActivityTest {
    @Inject
    StoredRows stored;

    @Test
    void should_order_by_last_activity_across_conversations_under_concurrent_sends() {
        String alice = user("alice");
        List<String> friends = IntStream.range(0, 4).mapToObj(i -> user("friend" + i)).toList();
        List<String> ids = friends.stream().map(f -> create(alice, List.of(f), null)).toList();
        Chat.inbox(alice); // completes alice's index (her first read)

        // Every member of every conversation sends at once, several messages each, in one conversation and across.
        List<String[]> sends = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            for (int k = 0; k < 3; k++) {
                sends.add(new String[] { alice, ids.get(i) });
                sends.add(new String[] { friends.get(i), ids.get(i) });
            }
        }
        Concurrently.run(sends, s -> sent(s[0], s[1], "race"));

        // Each conversation once, in the order of its newest message (the history's first), newest first.
        // (Ties of one millisecond: the greater id first.)
        Map<String, Instant> newest = new HashMap<>();
        ids.forEach(id -> newest.put(id, newest(alice, id)));
        List<String> expected = ids.stream()
                .sorted(Comparator.comparing((String id) -> newest.get(id)).thenComparing(id -> id).reversed())
                .toList();
        JsonPath inbox = Chat.inbox(alice).extract().jsonPath();
        assertThat(inbox.getList("items.conversationId", String.class)).isEqualTo(expected);
        for (int i = 0; i < ids.size(); i++) {
            assertThat(inbox.getString("items[" + i + "].lastAt")).isEqualTo(newest.get(expected.get(i)).toString());
            // Unread counts as before: the friend's three messages.
            assertThat(inbox.getInt("items[" + i + "].unreadCount")).isEqualTo(3);
        }

        // Then one message in each, oldest conversation first: the inbox follows.
        List<String> last = new ArrayList<>();
        for (String id : ids) {
            sent(friends.get(ids.indexOf(id)), id, "later");
            last.add(0, id);
        }
        Chat.inbox(alice).body("items.conversationId", equalTo(last));
        // Each send deleted its member's previous row; what concurrent sends left is gone after the reads.
        assertThat(activityRows(alice)).hasSize(ids.size());
    }

    @Test
    void should_never_list_a_conversation_twice_or_out_of_place_for_a_stale_row() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String older = create(alice, List.of(bob), null);
        sent(bob, older, "first");
        String newer = create(alice, List.of(carol), null);
        String newest = sent(carol, newer, "second");
        Chat.inbox(alice);

        // A superseded row of the older conversation above the newer one; a row ahead of its summary
        // (a send on its way) above everything; a row of a conversation alice is not in.
        Instant top = TimeUuids.instant(UUID.fromString(newest));
        insertActivity(alice, top.plusSeconds(5), older, top.plusSeconds(5));
        insertActivity(alice, top.plusSeconds(10), newer, top.plusSeconds(10));
        insertActivity(alice, top.plusSeconds(20), UUID.randomUUID().toString(), top.plusSeconds(20));
        // Superseded: older than the summary of the newer conversation.
        insertActivity(alice, top.minusSeconds(3600), newer, top.minusSeconds(3600));

        Chat.inbox(alice).body("items.conversationId", equalTo(List.of(newer, older)))
                .body("items[0].lastMessageId", equalTo(newest));
        // Page by page: the same, each once.
        assertThat(pages(alice, 1)).containsExactly(newer, older);
        // The superseded row was deleted by the read; the others wait until no write can still match them.
        assertThat(activityRows(alice).stream().filter(r -> r.getInstant("last_at").equals(top.minusSeconds(3600))))
                .isEmpty();
        assertThat(activityRows(alice)).hasSize(5);
    }

    @Test
    void should_page_through_120_conversations_each_exactly_once() {
        String alice = user("alice");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            ids.add(create(alice, List.of(user("p" + i)), null));
        }
        Chat.inbox(alice);
        // Messages in every third conversation, two at once in each of them (superseded rows in the walk).
        List<String> busy = IntStream.range(0, 120).filter(i -> i % 3 == 0).mapToObj(ids::get).toList();
        Concurrently.run(busy, id -> sent(alice, id, "one"));
        Concurrently.run(busy, id -> sent(alice, id, "two"));

        List<String> whole = as(alice).queryParam("limit", 500).when().get("/inbox").then().statusCode(200)
                .extract().jsonPath().getList("items.conversationId", String.class);
        assertThat(whole).hasSize(120).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ids);
        assertThat(whole.subList(0, busy.size())).containsExactlyInAnyOrderElementsOf(busy);
        for (int limit : new int[] { 7, 50 }) {
            assertThat(pages(alice, limit)).as("pages of %d", limit).isEqualTo(whole);
        }
    }

    @Test
    void should_fill_a_page_past_many_superseded_rows() {
        String alice = user("alice");
        String bob = user("bob");
        String quiet = create(alice, List.of(user("carol")), null);
        String busy = create(alice, List.of(bob), null);
        String last = sent(bob, busy, "hi");
        Chat.inbox(alice);
        // 300 superseded rows of the busy conversation between its summary and the quiet one: more
        // than MAX_ROUNDS index reads take, so the page reads every summary, and the rows it met go.
        Instant at = TimeUuids.instant(UUID.fromString(last));
        for (int i = 1; i <= 300; i++) {
            insertActivity(alice, at.minusMillis(i), busy, at.minusMillis(i));
        }
        as(alice).queryParam("limit", 2).when().get("/inbox").then().statusCode(200)
                .body("items.conversationId", equalTo(List.of(busy, quiet)));
        assertThat(pages(alice, 1)).containsExactly(busy, quiet);
        // Each read deleted the superseded rows it met; a few reads leave none.
        for (int i = 0; i < 4; i++) {
            Chat.inbox(alice);
        }
        assertThat(activityRows(alice)).hasSize(2);
        // The index, the page's summaries, the busy conversation's unread marker.
        as(alice).queryParam("limit", 2).when().get("/inbox").then().statusCode(200)
                .header("X-Statements", equalTo("3"))
                .body("items.conversationId", equalTo(List.of(busy, quiet)));
    }

    @Test
    void should_remove_a_conversation_from_the_index_on_leave() {
        String alice = user("alice");
        String bob = user("bob");
        String group = create(alice, List.of(bob, user("carol")), "Trip");
        String other = create(bob, List.of(user("dave")), null);
        sent(alice, group, "hello");
        Chat.inbox(bob).body("items.conversationId", equalTo(List.of(group, other)));

        as(bob).when().delete("/conversations/{id}/members/{u}", group, bob).then().statusCode(204);
        Chat.inbox(bob).body("items.conversationId", equalTo(List.of(other)));
        assertThat(activityRows(bob)).extracting(r -> r.getString("conversation_id")).containsExactly(other);

        // Joining again lists it at the join, above the other.
        as(alice).when().put("/conversations/{id}/members/{u}", group, bob).then().statusCode(200);
        Chat.inbox(bob).body("items.conversationId", equalTo(List.of(group, other)))
                .body("items[0].unreadCount", equalTo(0));
    }

    @Test
    void should_complete_the_index_of_summaries_written_before_it_on_the_first_read() {
        // Summaries as the service wrote them before cql/014: no index rows, no marker.
        String alice = user("alice");
        Instant start = Instant.now().minusSeconds(3600).truncatedTo(ChronoUnit.MILLIS);
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            UUID id = UUID.randomUUID();
            UUID last = TimeUuids.at(start.plusSeconds(i));
            stored.execute("INSERT INTO inbox_by_user (username, kind, conversation_id, message_id, partner, direct, "
                    + "joined_at, last_message_id, last_sender, last_preview, last_unread_id) "
                    + "VALUES (?, 0, ?, 00000000-0000-1000-8000-000000000000, ?, true, ?, ?, ?, 'hi', ?)",
                    alice, id, "p" + i, start, last, "p" + i, last);
            stored.execute("INSERT INTO inbox_by_user (username, kind, conversation_id, message_id) VALUES (?, 1, ?, ?)",
                    alice, id, last);
            ids.add(0, id.toString());
        }

        as(alice).when().get("/inbox").then().statusCode(200)
                .body("items.conversationId", equalTo(ids))
                .body("items.unreadCount", equalTo(List.of(1, 1, 1)));
        assertThat(activityRows(alice)).hasSize(3);
        // From now on, the index: its rows, the page's summaries, then the three unread counts in one read.
        as(alice).when().get("/inbox").then().statusCode(200)
                .header("X-Statements", equalTo("3"))
                .header("X-Partitions-Read", equalTo("3"))
                .body("items.conversationId", equalTo(ids))
                .body("items.unreadCount", equalTo(List.of(1, 1, 1)));
    }

    private static List<String> pages(String username, int limit) {
        String token = Tokens.bearer(username);
        List<String> seen = new ArrayList<>();
        Pages.all(200, request -> request.header("Authorization", token).queryParam("limit", limit).get("/inbox"))
                .forEach(page -> seen.addAll(page.jsonPath().getList("items.conversationId", String.class)));
        assertThat(new LinkedHashSet<>(seen)).as("each conversation once").hasSize(seen.size());
        return seen;
    }

    private static Instant newest(String username, String conversationId) {
        String id = as(username).queryParam("limit", 1).when().get("/conversations/{id}/messages", conversationId).then()
                .statusCode(200).extract().path("items[0].id");
        return TimeUuids.instant(UUID.fromString(id));
    }

    private List<Row> activityRows(String username) {
        return stored.execute("SELECT last_at, conversation_id FROM inbox_by_activity WHERE username = ?", username)
                .stream().filter(r -> r.getInstant("last_at") != null).toList();
    }

    private void insertActivity(String username, Instant lastAt, String conversationId, Instant writtenAt) {
        stored.execute("INSERT INTO inbox_by_activity (username, last_at, conversation_id) VALUES (?, ?, ?) "
                + "USING TIMESTAMP ?", username, lastAt.truncatedTo(ChronoUnit.MILLIS), conversationId,
                ChronoUnit.MICROS.between(Instant.EPOCH, writtenAt.truncatedTo(ChronoUnit.MILLIS)));
    }

}
