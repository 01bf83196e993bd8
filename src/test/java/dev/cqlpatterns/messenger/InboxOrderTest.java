package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.platform.time.TimeUuids;
import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.Pages;
import dev.cqlpatterns.testsupport.StoredRows;
import dev.cqlpatterns.testsupport.Tokens;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
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
 * What GET /inbox promises of its order (inbox_by_day): the order of last activity under concurrent
 * sends, paging each conversation exactly once, and leaves. InboxByDayTest runs these and adds the
 * index's own cases.
 */
abstract class InboxOrderTest {
    @Inject
    StoredRows stored;

    /** The conversation ids the index holds for {@code username} today (rows that may be listed). */
    abstract List<String> indexRows(String username);

    @Test
    void should_order_by_last_activity_across_conversations_under_concurrent_sends() {
        String alice = user("alice");
        List<String> friends =
                IntStream.range(0, 4).mapToObj(i -> user("friend" + i)).toList();
        List<String> ids =
                friends.stream().map(f -> create(alice, List.of(f), null)).toList();
        Chat.inbox(alice); // completes alice's index (her first read)

        // Every member of every conversation sends at once, several messages each, in one conversation and across.
        List<String[]> sends = new ArrayList<>();
        for (int i = 0; i < ids.size(); i++) {
            for (int k = 0; k < 3; k++) {
                sends.add(new String[] {alice, ids.get(i)});
                sends.add(new String[] {friends.get(i), ids.get(i)});
            }
        }
        Concurrently.run(sends, s -> sent(s[0], s[1], "race"));

        // Each conversation once, in the order of its newest message's millisecond (the history's first),
        // newest first; ties of one millisecond: the greater id first.
        Map<String, Instant> newest = new HashMap<>();
        ids.forEach(id -> newest.put(id, newest(alice, id)));
        List<String> expected = ids.stream()
                .sorted(Comparator.comparing((String id) -> newest.get(id).truncatedTo(ChronoUnit.MILLIS))
                        .thenComparing(id -> id)
                        .reversed())
                .toList();
        JsonPath inbox = Chat.inbox(alice).extract().jsonPath();
        assertThat(inbox.getList("items.conversationId", String.class)).isEqualTo(expected);
        for (int i = 0; i < ids.size(); i++) {
            assertThat(inbox.getString("items[" + i + "].lastAt"))
                    .isEqualTo(newest.get(expected.get(i)).toString());
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
        // One row of each conversation is left once the reads are done.
        assertThat(indexRows(alice)).hasSize(ids.size());
    }

    @Test
    void should_page_through_120_conversations_each_exactly_once() {
        String alice = user("alice");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 120; i++) {
            ids.add(create(alice, List.of(user("p" + i)), null));
        }
        Chat.inbox(alice);
        // Messages in every third conversation, two at once in each of them.
        List<String> busy = IntStream.range(0, 120)
                .filter(i -> i % 3 == 0)
                .mapToObj(ids::get)
                .toList();
        Concurrently.run(busy, id -> sent(alice, id, "one"));
        Concurrently.run(busy, id -> sent(alice, id, "two"));

        List<String> whole = as(alice)
                .queryParam("limit", 500)
                .when()
                .get("/inbox")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.conversationId", String.class);
        assertThat(whole).hasSize(120).doesNotHaveDuplicates().containsExactlyInAnyOrderElementsOf(ids);
        assertThat(whole.subList(0, busy.size())).containsExactlyInAnyOrderElementsOf(busy);
        for (int limit : new int[] {7, 50}) {
            assertThat(pages(alice, limit)).as("pages of %d", limit).isEqualTo(whole);
        }
    }

    @Test
    void should_remove_a_conversation_on_leave_and_list_it_again_at_the_join() {
        String alice = user("alice");
        String bob = user("bob");
        String group = create(alice, List.of(bob, user("carol")), "Trip");
        String other = create(bob, List.of(user("dave")), null);
        sent(alice, group, "hello");
        Chat.inbox(bob).body("items.conversationId", equalTo(List.of(group, other)));

        as(bob).when()
                .delete("/conversations/{id}/members/{u}", group, bob)
                .then()
                .statusCode(204);
        Chat.inbox(bob).body("items.conversationId", equalTo(List.of(other)));
        assertThat(indexRows(bob)).containsExactly(other);

        // Joining again lists it at the join, above the other.
        as(alice)
                .when()
                .put("/conversations/{id}/members/{u}", group, bob)
                .then()
                .statusCode(200);
        Chat.inbox(bob)
                .body("items.conversationId", equalTo(List.of(group, other)))
                .body("items[0].unreadCount", equalTo(0));
    }

    /**
     * Three 1:1 summaries of {@code username} as the service wrote them before any index (no index row,
     * nothing listed), their last messages {@code step} apart from {@code start}, each the one unread
     * message; their ids, newest first.
     */
    List<String> summariesWithoutIndex(String username, Instant start, Duration step) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            UUID id = UUID.randomUUID();
            UUID last = TimeUuids.at(start.plus(step.multipliedBy(i)));
            stored.execute(
                    "INSERT INTO inbox_by_user (username, kind, conversation_id, message_id, partner, direct, "
                            + "joined_at, last_message_id, last_sender, last_preview, others_sent, others_read) "
                            + "VALUES (?, 0, ?, 00000000-0000-1000-8000-000000000000, ?, true, ?, ?, ?, 'hi', 1, 0)",
                    username,
                    id,
                    "p" + i,
                    start,
                    last,
                    "p" + i);
            ids.add(0, id.toString());
        }
        return ids;
    }

    /** Every page of {@code username}'s inbox, {@code limit} at a time: each conversation once. */
    static List<String> pages(String username, int limit) {
        String token = Tokens.bearer(username);
        List<String> seen = new ArrayList<>();
        Pages.all(
                        200,
                        request -> request.header("Authorization", token)
                                .queryParam("limit", limit)
                                .get("/inbox"))
                .forEach(page -> seen.addAll(page.jsonPath().getList("items.conversationId", String.class)));
        assertThat(new LinkedHashSet<>(seen)).as("each conversation once").hasSize(seen.size());
        return seen;
    }

    private static Instant newest(String username, String conversationId) {
        String id = as(username)
                .queryParam("limit", 1)
                .when()
                .get("/conversations/{id}/messages", conversationId)
                .then()
                .statusCode(200)
                .extract()
                .path("items[0].id");
        return TimeUuids.instant(UUID.fromString(id));
    }
}
