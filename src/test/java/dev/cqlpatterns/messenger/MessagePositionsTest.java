package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.history;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.messenger.inbox.InboxRows;
import dev.cqlpatterns.testsupport.ConditionalWriteFaults;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Every message of a conversation gets one position, one after the other (message_positions): also
 * when the claim's outcome is unknown (a CAS timeout, settled by a serial read), when Cassandra
 * answers "not applied" to a claim it committed, and when the send is retried with its
 * Idempotency-Key. Each member's summary then holds the messages from others so far
 * (others_sent), and a mark-read how many of them were read (others_read).
 */
@QuarkusTest
class MessagePositionsTest {

    @Inject
    ConditionalWriteFaults faults;

    @Inject
    StoredRows rows;

    @AfterEach
    void noFaults() {
        faults.clearFaults();
    }

    @Test
    void should_give_each_message_one_position_whatever_the_claim_answered() {
        String alice = user("alice");
        String bob = user("bob");
        String id = create(alice, List.of(bob), null);
        send(alice, id, "plain", null);
        faults.injectUnknownOutcome(MessagePositions.TABLE, true, 1);
        send(alice, id, "claimed, outcome unknown", null);
        faults.injectUnknownOutcome(MessagePositions.TABLE, false, 1);
        send(bob, id, "not sent, outcome unknown", null);
        faults.injectOwnWriteNotApplied(MessagePositions.TABLE, 1);
        send(alice, id, "claimed, answered not applied", null);
        assertThat(faults.delivered(MessagePositions.TABLE)).isTrue();
        String key = UUID.randomUUID().toString();
        String first = send(bob, id, "with a key", key);
        assertThat(send(bob, id, "with a key", key)).as("the retry's message").isEqualTo(first);

        List<String> messages = history(alice, id, Map.of("limit", 50)).path("items.id");
        assertThat(messages).hasSize(5).doesNotHaveDuplicates();
        Row head = rows.execute(
                        "SELECT DISTINCT conversation_id, last_position, last_message_id, sent FROM message_positions "
                                + "WHERE conversation_id = ?",
                        UUID.fromString(id))
                .get(0);
        assertThat(head.getLong("last_position")).isEqualTo(5);
        assertThat(head.getUuid("last_message_id").toString()).isEqualTo(messages.get(0));
        assertThat(head.getMap("sent", String.class, Long.class)).isEqualTo(Map.of(alice, 3L, bob, 2L));
        assertThat(othersSent(bob, id)).as("messages from others than bob").isEqualTo(3);
        assertThat(othersSent(alice, id)).as("messages from others than alice").isEqualTo(2);

        Chat.markRead(bob, id).statusCode(200);
        assertThat(summary(bob, id).getLong("others_read")).isEqualTo(3);
    }

    @Test
    void should_start_a_new_member_after_the_last_message() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String id = create(alice, List.of(bob, user("dave")), "group");
        assertThat(summary(bob, id).getLong("others_read"))
                .as("a new conversation's members")
                .isZero();
        send(alice, id, "one", null);
        String last = send(bob, id, "two", null);
        Chat.join(alice, id, carol).then().statusCode(200);
        Row joined = summary(carol, id);
        assertThat(joined.getLong("others_read"))
                .as("messages from others before carol joined")
                .isEqualTo(2);
        assertThat(joined.getUuid("read_up_to").toString()).isEqualTo(last);
        send(alice, id, "three", null);
        assertThat(othersSent(carol, id) - summary(carol, id).getLong("others_read"))
                .isEqualTo(1);
        assertThat(Chat.inboxEntry(carol, id)).containsEntry("unreadCount", 1);
    }

    private long othersSent(String member, String id) {
        return summary(member, id).getLong("others_sent");
    }

    private Row summary(String member, String id) {
        return rows.execute(
                        "SELECT others_sent, others_read, read_up_to FROM inbox_by_user WHERE username = ? AND kind = 0 "
                                + "AND conversation_id = ? AND message_id = ?",
                        member,
                        UUID.fromString(id),
                        InboxRows.SUMMARY)
                .get(0);
    }

    private static String send(String sender, String id, String content, String key) {
        var request = as(sender).contentType(ContentType.JSON).body(Map.of("content", content));
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return request.when()
                .post("/conversations/{id}/messages", id)
                .then()
                .statusCode(201)
                .extract()
                .path("id");
    }
}
