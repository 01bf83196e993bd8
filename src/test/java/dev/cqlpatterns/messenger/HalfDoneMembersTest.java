package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.inbox;
import static dev.cqlpatterns.messenger.Chat.join;
import static dev.cqlpatterns.messenger.Chat.remove;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.messenger.inbox.InboxRows;
import dev.cqlpatterns.testsupport.MembershipRows;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A join or leave of a group conversation that stopped half way (a 503 after its first writes;
 * simulated by writing just those rows here) is finished by the client's retry of the same request,
 * leaving exactly what one clean request leaves. The routes write no logged batch (issue 14): the
 * inbox rows first, the member set last, so the retry still has something to find.
 */
@QuarkusTest
class HalfDoneMembersTest {

    @Inject
    StoredRows rows;

    /** What a user's rows say of one conversation, without times: summary, charge, unread in the inbox. */
    private Map<String, Object> stored(String username, String id) {
        UUID conversation = UUID.fromString(id);
        Map<String, Object> state = new LinkedHashMap<>();
        List<Row> summary = rows.execute(
                "SELECT title, partner, direct, joined_at, others_sent, others_read FROM inbox_by_user "
                        + "WHERE username = ? AND kind = 0 AND conversation_id = ?",
                username,
                conversation);
        state.put("summaries", summary.size());
        summary.forEach(r -> {
            state.put("title", r.getString("title"));
            state.put("partner", r.getString("partner"));
            state.put("direct", r.getBoolean("direct"));
            state.put("member", r.getInstant("joined_at") != null);
            state.put("unread", r.getLong("others_sent") - r.getLong("others_read"));
        });
        state.put("addedBy", MembershipRows.addedBy(rows, username, conversation));
        state.put(
                "listed",
                inbox(username).extract().jsonPath().getList("items.conversationId").stream()
                        .filter(id::equals)
                        .count());
        return state;
    }

    private Set<String> members(String id) {
        return rows.execute("SELECT members FROM conversations WHERE id = ?", UUID.fromString(id))
                .get(0)
                .getSet("members", String.class);
    }

    @Test
    void should_finish_a_join_that_stopped_after_the_inbox_rows() {
        String alice = user("alice");
        String bob = user("bob");
        String dave = user("dave");
        String erin = user("erin");
        String carol = user("carol");
        String id = create(alice, List.of(bob, carol), "Half joined");
        // A clean join, for comparison.
        join(alice, id, erin).then().statusCode(200);

        // dave's join stopped after its first writes: his summary and set row, not the member set.
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, now);
        rows.execute(
                "INSERT INTO inbox_by_user (username, kind, conversation_id, message_id, title, direct, joined_at) "
                        + "VALUES (?, 0, ?, ?, ?, false, ?) USING TIMESTAMP ?",
                dave,
                UUID.fromString(id),
                InboxRows.SUMMARY,
                "Half joined",
                now,
                micros);
        MembershipRows.write(rows, dave, UUID.fromString(id), alice, now);
        assertThat(members(id)).doesNotContain(dave);

        join(alice, id, dave).then().statusCode(200).body("members", org.hamcrest.Matchers.hasItem(dave));
        assertThat(members(id)).containsExactlyInAnyOrder(alice, bob, carol, dave, erin);
        assertThat(stored(dave, id)).isEqualTo(stored(erin, id));
        assertThat(stored(dave, id))
                .containsEntry("summaries", 1)
                .containsEntry("listed", 1L)
                .containsEntry("addedBy", List.of(alice));
        // A member now: reads the conversation and is sent its messages, as erin is.
        as(dave).when().get("/conversations/{id}", id).then().statusCode(200);
        Chat.sent(bob, id, "Welcome");
        assertThat(stored(dave, id)).isEqualTo(stored(erin, id)).containsEntry("unread", 1L);
    }

    @Test
    void should_finish_a_leave_that_stopped_after_the_inbox_deletes() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String frank = user("frank");
        String id = create(alice, List.of(bob, carol, frank), "Half left");
        Chat.sent(alice, id, "Before the leaves");
        // A clean leave, for comparison.
        remove(frank, id, frank).then().statusCode(204);

        // carol's leave stopped after its first writes: her inbox rows are gone, the member set still lists her.
        UUID conversation = UUID.fromString(id);
        rows.execute(
                "DELETE FROM inbox_by_user WHERE username = ? AND kind = 0 AND conversation_id = ?",
                carol,
                conversation);
        MembershipRows.delete(rows, carol, conversation);
        assertThat(members(id)).contains(carol);

        remove(carol, id, carol).then().statusCode(204);
        assertThat(members(id)).containsExactlyInAnyOrder(alice, bob);
        assertThat(stored(carol, id)).isEqualTo(stored(frank, id));
        assertThat(stored(carol, id))
                .containsEntry("summaries", 0)
                .containsEntry("addedBy", List.of())
                .containsEntry("listed", 0L);
        as(carol).when().get("/conversations/{id}", id).then().statusCode(404);
        // Done: the same DELETE again is a 404, as after any completed leave.
        remove(carol, id, carol).then().statusCode(404);
    }
}
