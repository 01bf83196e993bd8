package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.markRead;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.timeOf;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.messenger.inbox.InboxRows;
import dev.cqlpatterns.messenger.inbox.ReadState;
import dev.cqlpatterns.platform.time.WriteTimestamps;
import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import dev.cqlpatterns.testsupport.ReadTraces;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Unread counts from the summary's two numbers (others_sent - others_read, cql/054): a page of the
 * inbox reads the same rows whatever the number unread, the first unread is found across months,
 * and a membership begun before positions still counts its markers.
 */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
class UnreadCountsTest {
    @Inject
    StoredRows stored;

    @Inject
    MovableClock clock;

    @AfterEach
    void realTime() {
        clock.reset();
    }

    @Test
    void should_read_the_same_rows_for_a_page_whatever_the_number_unread() {
        String busy = user("busy");
        String twin = user("twin");
        String sender = user("sender");
        String many = create(sender, List.of(busy), null);
        String few = create(sender, List.of(twin), null);
        String firstOfMany = sentTimes(sender, many, 300);
        String firstOfFew = sentTimes(sender, few, 5);
        // Each caller's first read lists their days (InboxByDay); the reads compared are the next ones.
        Chat.inbox(busy);
        Chat.inbox(twin);

        long busyRows = rowsRead(busy, many, 300, firstOfMany);
        long twinRows = rowsRead(twin, few, 5, firstOfFew);

        // The cap's 100 markers against 5 were read before: a page now reads its summaries and the oldest
        // unread marker, the same for both.
        assertThat(busyRows)
                .as("live rows GET /inbox read with 300 unread, and with 5 (%d)", twinRows)
                .isEqualTo(twinRows);
    }

    @Test
    void should_find_the_first_unread_months_after_the_last_mark_read() {
        String alice = user("alice");
        String bob = user("bob");
        clock.set(Instant.parse("2025-01-10T08:00:00Z"));
        String id = create(alice, List.of(bob), null);
        clock.set(Instant.parse("2025-01-15T08:00:00Z"));
        sent(alice, id, "january");
        markRead(bob, id).statusCode(200);
        clock.set(Instant.parse("2025-03-05T08:00:00Z"));
        String march = sent(alice, id, "march");
        clock.set(Instant.parse("2025-04-05T08:00:00Z"));
        sent(alice, id, "april");
        clock.reset();

        Chat.assertUnread(bob, id, 2, march);
    }

    @Test
    void should_find_the_first_unread_without_markers_past_the_readers_own_messages() {
        String alice = user("alice");
        String bob = user("bob");
        String id = readByBob(alice, bob);
        sent(bob, id, "mine");
        sent(bob, id, "mine too");
        String first = sent(alice, id, "unread");
        sent(alice, id, "unread too");

        Chat.assertUnread(bob, id, 2, first);
    }

    @Test
    void should_find_the_first_unread_without_markers_when_the_reader_sent_with_some_unread() {
        String alice = user("alice");
        String bob = user("bob");
        String id = create(alice, List.of(bob), null);
        String first = sent(alice, id, "unread");
        sent(alice, id, "unread too");
        sent(bob, id, "mine, with two unread");
        sent(alice, id, "unread three");

        Chat.assertUnread(bob, id, 3, first);
        Chat.readThenOneMore(bob, alice, id);
    }

    @Test
    void should_pass_the_readers_own_messages_after_read_up_to() {
        String alice = user("alice");
        String bob = user("bob");
        String id = readByBob(alice, bob);
        String mine = sent(bob, id, "mine");
        String mineToo = sent(bob, id, "mine too");
        // As a send racing bob's own mark-read can leave it (cql/061): read_up_to behind one of his messages.
        stored.execute(
                "UPDATE inbox_by_user USING TIMESTAMP ? SET read_up_to = ? WHERE username = ? AND kind = 0 "
                        + "AND conversation_id = ? AND message_id = ?",
                WriteTimestamps.micros(UUID.fromString(mineToo)) + 1,
                UUID.fromString(mine),
                bob,
                UUID.fromString(id),
                InboxRows.SUMMARY);
        String first = sent(alice, id, "unread");
        sent(alice, id, "unread too");

        Chat.assertUnread(bob, id, 2, first);
    }

    @Test
    void should_find_the_first_unread_after_the_readers_own_sends_that_raced() {
        String alice = user("alice");
        String bob = user("bob");
        String id = readByBob(alice, bob);
        // Eight of bob's sends at once, three times: sends that read bob's summary before another moved it.
        for (int round = 0; round < 3; round++) {
            Concurrently.run(IntStream.range(0, 8).boxed().toList(), n -> sent(bob, id, "mine " + n));
        }
        String first = sent(alice, id, "unread");
        sent(alice, id, "unread too");

        Chat.assertUnread(bob, id, 2, first);
    }

    @Test
    void should_find_the_first_unread_by_its_marker_where_no_message_names_it() {
        String alice = user("alice");
        String bob = user("bob");
        String id = create(alice, List.of(bob), null);
        String first = sent(alice, id, "one");
        sent(alice, id, "two");
        // As a release before 0.11.0 left it: no messages_by_previous row, an unread marker per message.
        stored.execute(
                "DELETE FROM messages_by_previous WHERE conversation_id = ? AND previous_message_id = ?",
                UUID.fromString(id),
                ReadState.NEVER_READ);
        stored.execute(
                "INSERT INTO inbox_by_user (username, kind, conversation_id, message_id) VALUES (?, 1, ?, ?) "
                        + "USING TIMESTAMP ?",
                bob,
                UUID.fromString(id),
                UUID.fromString(first),
                WriteTimestamps.micros(UUID.fromString(first)));

        Chat.assertUnread(bob, id, 2, first);
    }

    /** A conversation of alice's with bob, one message from her, which he has read; its id. */
    private static String readByBob(String alice, String bob) {
        String id = create(alice, List.of(bob), null);
        sent(alice, id, "read");
        markRead(bob, id).statusCode(200);
        return id;
    }

    /** {@code n} messages from {@code sender}; the first one's id. */
    private static String sentTimes(String sender, String id, int n) {
        String first = sent(sender, id, "m0");
        IntStream.range(1, n).forEach(i -> sent(sender, id, "m" + i));
        return first;
    }

    /** The live rows one GET /inbox of {@code caller} read, checking its one entry first. */
    private long rowsRead(String caller, String id, int unread, String first) {
        List<ReadTraces.Scan> scans = ReadTraces.during(
                stored,
                () -> assertThat(Chat.inboxEntry(caller, id))
                        .containsEntry("unreadCount", Math.min(unread, 100))
                        .containsEntry("firstUnreadAt", timeOf(first)));
        return scans.stream().mapToLong(ReadTraces.Scan::liveRows).sum();
    }
}
