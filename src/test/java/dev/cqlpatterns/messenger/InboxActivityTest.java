package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The inbox read through inbox_by_activity (cql/014_inbox_by_activity.cql): InboxOrderTest's cases,
 * superseded and orphaned index rows, and the first read of a user whose summaries were written
 * before the index existed.
 */
@QuarkusTest
@TestProfile(ActivityIndexProfile.class)
class InboxActivityTest extends InboxOrderTest {

    @Override
    List<String> indexRows(String username) {
        return activityRows(username).stream()
                .map(r -> r.getString("conversation_id"))
                .toList();
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

        Chat.inbox(alice)
                .body("items.conversationId", equalTo(List.of(newer, older)))
                .body("items[0].lastMessageId", equalTo(newest));
        // Page by page: the same, each once.
        assertThat(pages(alice, 1)).containsExactly(newer, older);
        // The superseded row was deleted by the read; the others wait until no write can still match them.
        assertThat(activityRows(alice).stream()
                        .filter(r -> r.getInstant("last_at").equals(top.minusSeconds(3600))))
                .isEmpty();
        assertThat(activityRows(alice)).hasSize(5);
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
        Chat.inboxPage(alice, Map.of("limit", 2))
                .then()
                .statusCode(200)
                .body("items.conversationId", equalTo(List.of(busy, quiet)));
        assertThat(pages(alice, 1)).containsExactly(busy, quiet);
        // Each read deleted the superseded rows it met; a few reads leave none.
        for (int i = 0; i < 4; i++) {
            Chat.inbox(alice);
        }
        assertThat(activityRows(alice)).hasSize(2);
        // The index, the page's summaries, the busy conversation's unread marker.
        Chat.inboxPage(alice, Map.of("limit", 2))
                .then()
                .statusCode(200)
                .header("X-Statements", equalTo("3"))
                .body("items.conversationId", equalTo(List.of(busy, quiet)));
    }

    @Test
    void should_complete_the_index_of_summaries_written_before_it_on_the_first_read() {
        // Summaries as the service wrote them before cql/014: no index rows, no marker.
        String alice = user("alice");
        Instant start = Instant.now().minusSeconds(3600).truncatedTo(ChronoUnit.MILLIS);
        List<String> ids = summariesWithoutIndex(alice, start, Duration.ofSeconds(1));

        Chat.inbox(alice)
                .body("items.conversationId", equalTo(ids))
                .body("items.unreadCount", equalTo(List.of(1, 1, 1)));
        assertThat(activityRows(alice)).hasSize(3);
        // From now on, the index: its rows, the page's summaries, then the three unread counts in one read.
        Chat.inbox(alice)
                .header("X-Statements", equalTo("3"))
                .header("X-Partitions-Read", equalTo("3"))
                .body("items.conversationId", equalTo(ids))
                .body("items.unreadCount", equalTo(List.of(1, 1, 1)));
    }

    private List<Row> activityRows(String username) {
        return stored
                .execute("SELECT last_at, conversation_id FROM inbox_by_activity WHERE username = ?", username)
                .stream()
                .filter(r -> r.getInstant("last_at") != null)
                .toList();
    }

    private void insertActivity(String username, Instant lastAt, String conversationId, Instant writtenAt) {
        stored.execute(
                "INSERT INTO inbox_by_activity (username, last_at, conversation_id) VALUES (?, ?, ?) "
                        + "USING TIMESTAMP ?",
                username,
                lastAt.truncatedTo(ChronoUnit.MILLIS),
                conversationId,
                ChronoUnit.MICROS.between(Instant.EPOCH, writtenAt.truncatedTo(ChronoUnit.MILLIS)));
    }
}
