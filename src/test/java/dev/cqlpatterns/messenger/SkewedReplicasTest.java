package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.inboxEntry;
import static dev.cqlpatterns.messenger.Chat.join;
import static dev.cqlpatterns.messenger.Chat.markRead;
import static dev.cqlpatterns.messenger.Chat.remove;
import static dev.cqlpatterns.messenger.Chat.send;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Mark-read against send when service replicas' clocks differ: one replica's clock is moved by
 * {@link #SKEW} for the requests it serves, the others tell real time. Message ids, and the write
 * timestamps of every messenger write, come from the clock of the replica that served the request,
 * so the skew reaches Cassandra as it would in production. What the caller read is decided by the
 * messages they had unread, not by the reader's clock.
 */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
class SkewedReplicasTest {
    private static final Duration SKEW = Duration.ofSeconds(30);

    @Inject
    MovableClock clock;

    @AfterEach
    void realTime() {
        clock.reset();
    }

    private static String sentAt(String sender, String conversationId, String content) {
        return send(sender, conversationId, content).statusCode(201).extract().path("sentAt");
    }

    private static int unread(String username, String conversationId) {
        return ((Number) inboxEntry(username, conversationId).get("unreadCount")).intValue();
    }

    @Test
    void should_keep_a_message_unread_that_arrives_after_a_mark_read_on_a_replica_whose_clock_is_ahead() {
        String alice = user("alice");
        String bob = user("bob");
        String id = create(alice, List.of(bob), "skew ahead");
        sent(bob, id, "first");
        clock.skewedBy(SKEW, () -> markRead(alice, id).statusCode(200));
        assertThat(unread(alice, id)).isZero();

        sent(bob, id, "sent after alice read, with an earlier time than her replica's clock");

        assertThat(unread(alice, id)).isEqualTo(1);
        markRead(alice, id).statusCode(200);
        assertThat(unread(alice, id)).isZero();
    }

    @Test
    void should_read_a_message_whose_sender_replica_clock_is_ahead() {
        String alice = user("alice");
        String bob = user("bob");
        String id = create(alice, List.of(bob), "sender ahead");
        String future = clock.skewedBy(SKEW, () -> sentAt(bob, id, "from the future"));
        assertThat(unread(alice, id)).isEqualTo(1);

        markRead(alice, id).statusCode(200);

        assertThat(unread(alice, id)).isZero();
        String later = sentAt(bob, id, "after the mark-read, on a replica telling real time");
        assertThat(Instant.parse(later))
                .as("a message takes a time after the conversation's newest, whatever its replica's clock says")
                .isAfter(Instant.parse(future));
        assertThat(unread(alice, id)).isEqualTo(1);
    }

    private static List<String> members(String caller, String id) {
        return as(caller)
                .when()
                .get("/conversations/{id}", id)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("members", String.class);
    }

    private static boolean inInbox(String username, String id) {
        return inboxEntry(username, id) != null;
    }

    @Test
    void should_remove_a_member_on_a_replica_whose_clock_is_behind_the_one_that_added_them() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String dave = user("dave");
        String id = create(alice, List.of(bob, dave), "leave behind");
        join(alice, id, carol).then().statusCode(200);

        clock.skewedBy(SKEW.negated(), () -> remove(alice, id, carol).then().statusCode(204));

        assertThat(members(alice, id)).containsExactlyInAnyOrder(alice, bob, dave);
        assertThat(inInbox(carol, id)).isFalse();
        sent(bob, id, "carol is gone");
        assertThat(inInbox(carol, id)).isFalse();
    }

    @Test
    void should_add_back_a_member_right_after_a_removal_on_a_replica_whose_clock_is_ahead() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String id = create(alice, List.of(bob, carol), "rejoin");
        clock.skewedBy(SKEW, () -> remove(alice, id, carol).then().statusCode(204));

        join(alice, id, carol).then().statusCode(200);

        assertThat(members(alice, id)).containsExactlyInAnyOrder(alice, bob, carol);
        assertThat(inInbox(carol, id)).isTrue();
        sent(bob, id, "welcome back");
        assertThat(unread(carol, id)).isEqualTo(1);
    }
}
