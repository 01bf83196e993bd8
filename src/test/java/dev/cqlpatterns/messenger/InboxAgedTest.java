package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.markRead;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.sentQuickly;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.is;

import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import dev.cqlpatterns.testsupport.ReadTraces;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * GET /inbox on an aged inbox, built through the service's own routes over several days (moved by the
 * service's clock): each sender in turn in ten 1:1 conversations, mark-reads, the caller leaving and
 * re-joining a group, the caller's own sends. Counts, from the node's traces, the tombstone cells the
 * inbox's reads scan (cql/015_inbox_by_day.cql states the bound): the same at ten times the messages,
 * and within one per conversation and day visited.
 *
 * <p>The tests run in the order of the days their clocks start on: a conversation's creation time
 * never goes back within a process (CreateConversation), so a test on earlier days than one before
 * it would find its conversations created on that test's days.
 */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InboxAgedTest {
    private static final int CONVERSATIONS = 10;
    private static final int DAYS = 3;

    @Inject
    MovableClock clock;

    @Inject
    StoredRows stored;

    @AfterEach
    void resetClock() {
        clock.reset();
    }

    @Test
    @Order(1) // from 2 days ahead
    void should_scan_the_same_dead_cells_for_ten_times_the_messages() {
        Instant start = daysAhead(2);
        String small = aged(start, 2);
        String large = aged(start, 20);

        clock.set(start.plus(Duration.ofDays(DAYS - 1)).plusSeconds(7200));
        Cells smallRead = deadCellsOfOneRead(small);
        Cells largeRead = deadCellsOfOneRead(large);

        // The order (the days, their rows, the summaries): the same after ten times the messages, and at
        // most one per conversation (the group too) for each day visited.
        assertThat(largeRead.index())
                .as(
                        "tombstone cells of the index after %d and %d messages (%d)",
                        CONVERSATIONS * 2 * DAYS, CONVERSATIONS * 20 * DAYS, smallRead.index())
                .isEqualTo(smallRead.index());
        assertThat(smallRead.index()).isLessThanOrEqualTo((CONVERSATIONS + 1L) * DAYS);
        // The first unread message of each conversation, the one after its read_up_to (messages_by_previous): one
        // row of a partition never deleted: no dead cell, whatever was read and deleted before.
        assertThat(List.of(smallRead.unread(), largeRead.unread())).containsOnly(0L);
    }

    @Test
    @Order(2) // from 10 days ahead
    void should_drop_settled_days_with_nothing_to_show_from_the_walk() {
        Instant start = daysAhead(10);
        String alice = aged(start, 1);
        // Three days later the two older days have settled: every conversation moved on from them.
        clock.set(start.plus(Duration.ofDays(DAYS + 2)));
        Cells first = deadCellsOfOneRead(alice);
        Cells next = deadCellsOfOneRead(alice);

        assertThat(days(alice)).as("days listed after the first read").hasSize(1);
        // The two dropped days' row tombstones in time_buckets are all the second read's order meets.
        assertThat(next.index()).isLessThan(first.index()).isLessThanOrEqualTo(2);
        // The days, the one day's rows, their summaries, and the first unread message of the 8 conversations
        // where more than the last message is unread: the 7 never marked read, and the one alice replied in.
        as(alice).when().get("/inbox").then().statusCode(200).header("X-Statements", "11");
    }

    @Test
    @Order(3) // from 20 days ahead
    void should_count_and_mark_unread_from_the_last_mark_read_on() {
        Instant at = daysAhead(20);
        clock.set(at);
        String alice = user("alice");
        String quiet = user("quiet");
        String busy = user("busy");
        String unread = create(quiet, List.of(alice), null);
        String read = create(busy, List.of(alice), null);
        sent(quiet, unread, "never read");
        sent(quiet, unread, "still unread");
        for (int round = 0; round < 5; round++) {
            for (int m = 0; m < 3; m++) {
                clock.set(at = at.plusMillis(7));
                sent(busy, read, "read soon " + round + "." + m);
            }
            clock.set(at = at.plusMillis(7));
            markRead(alice, read).statusCode(200);
        }
        clock.set(at = at.plusMillis(7));
        sent(busy, read, "new");
        clock.set(at = at.plusMillis(7));
        sent(busy, read, "newer");
        clock.set(at.plusMillis(7));

        // Two conversations with two unread messages and different read_up_to: the first unread of each is the
        // message after its own read_up_to (messages_by_previous), one row; no read meets the markers alice has
        // read, nor any marker.
        List<ReadTraces.Scan> inbox = ReadTraces.during(
                stored,
                () -> Chat.inbox(alice)
                        .statusCode(200)
                        .body("items.find { it.conversationId == '" + read + "' }.unreadCount", is(2))
                        .body("items.find { it.conversationId == '" + unread + "' }.unreadCount", is(2)));
        List<ReadTraces.Scan> firsts = inbox.stream()
                .filter(s -> s.query().contains("messages_by_previous"))
                .toList();
        assertThat(firsts).as("the first-unread reads of GET /inbox").hasSize(2);
        assertThat(ReadTraces.tombstones(inbox))
                .as("tombstone cells GET /inbox read: %s", inbox)
                .isZero();
        assertThat(inbox.stream().filter(s -> s.query().contains("kind = 1")))
                .as("reads of unread markers")
                .isEmpty();

        // A mark-read reads the history after the previous one's end, never the markers it deleted.
        List<ReadTraces.Scan> mark = ReadTraces.during(
                stored, () -> markRead(alice, read).statusCode(200).body("markedSeen", is(2)));
        List<ReadTraces.Scan> history = mark.stream()
                .filter(s -> s.query().contains("messages_by_conversation"))
                .toList();
        assertThat(history).as("the history read of the mark-read").isNotEmpty();
        assertThat(mark.stream()
                        .filter(s -> s.query().contains("kind = 1") && s.query().startsWith("SELECT")))
                .as("unread markers read by the mark-read")
                .isEmpty();
        List<ReadTraces.Scan> reads = mark.stream()
                .filter(s -> !s.query().contains("conversations WHERE"))
                .toList();
        assertThat(ReadTraces.tombstones(reads))
                .as("tombstone cells of the mark-read's reads of the caller's inbox and the history: %s", reads)
                .isZero();
    }

    @Test
    @Order(4) // from 30 days ahead
    void should_read_the_first_unread_only_where_more_than_the_last_message_is_unread() {
        Instant at = daysAhead(30);
        clock.set(at);
        String alice = user("alice");
        List<String> senders = List.of(user("first"), user("second"), user("third"));
        List<String> ids = senders.stream()
                .map(sender -> create(sender, List.of(alice), null))
                .toList();
        Chat.inbox(alice);
        for (int i = 0; i < ids.size(); i++) {
            clock.set(at = at.plusMillis(7));
            sent(senders.get(i), ids.get(i), "before");
            clock.set(at = at.plusSeconds(40));
            markRead(alice, ids.get(i)).statusCode(200);
        }
        for (int i = 0; i < ids.size(); i++) {
            for (int m = 0; m <= i; m++) {
                clock.set(at = at.plusMillis(7));
                sent(senders.get(i), ids.get(i), "after " + m);
            }
        }
        // The counts are on the summaries; the first unread message is read for the two conversations with more
        // than one unread (the one unread message of the first is its last message). With the days, the day's
        // rows and the summaries: 5 statements.
        as(alice)
                .when()
                .get("/inbox")
                .then()
                .statusCode(200)
                .header("X-Statements", "5")
                .body("items.find { it.conversationId == '" + ids.get(0) + "' }.unreadCount", is(1))
                .body("items.find { it.conversationId == '" + ids.get(1) + "' }.unreadCount", is(2))
                .body("items.find { it.conversationId == '" + ids.get(2) + "' }.unreadCount", is(3));
    }

    /**
     * A user aged through the routes: {@code perDay} messages a day from each of ten senders in turn,
     * over DAYS days, with a mark-read, a leave and re-join of a group and an own send each day.
     */
    private String aged(Instant start, int perDay) {
        String alice = user("alice");
        List<String> senders = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        clock.set(start);
        for (int i = 0; i < CONVERSATIONS; i++) {
            senders.add(user("sender" + i));
            ids.add(create(alice, List.of(senders.get(i)), null));
        }
        String organiser = senders.get(0);
        String group = create(organiser, List.of(alice, senders.get(1)), "Trip");
        Chat.inbox(alice);
        for (int day = 0; day < DAYS; day++) {
            Instant at = start.plus(Duration.ofDays(day));
            for (int k = 0; k < perDay; k++) {
                for (int i = 0; i < CONVERSATIONS; i++) {
                    clock.set(at = at.plusMillis(7));
                    sentQuickly(senders.get(i), ids.get(i), "message " + k);
                }
            }
            clock.set(at = at.plusMillis(7));
            markRead(alice, ids.get(day % CONVERSATIONS)).statusCode(200);
            sent(alice, ids.get(0), "reply");
            as(alice)
                    .when()
                    .delete("/conversations/{id}/members/{u}", group, alice)
                    .then()
                    .statusCode(204);
            clock.set(at = at.plusMillis(7));
            as(organiser)
                    .when()
                    .put("/conversations/{id}/members/{u}", group, alice)
                    .then()
                    .statusCode(200);
            sent(organiser, group, "welcome back");
        }
        return alice;
    }

    /** 01:00 UTC, {@code days} days from today: where a test's clock starts (see the class comment). */
    private static Instant daysAhead(int days) {
        return Instant.now()
                .truncatedTo(ChronoUnit.DAYS)
                .plus(Duration.ofDays(days))
                .plusSeconds(3600);
    }

    /** Tombstone cells one GET /inbox scanned: in its order of last activity, and in its first-unread reads. */
    private record Cells(long index, long unread) {}

    private Cells deadCellsOfOneRead(String username) {
        List<ReadTraces.Scan> scans = ReadTraces.during(
                stored, () -> as(username).when().get("/inbox").then().statusCode(200));
        List<ReadTraces.Scan> unread = scans.stream()
                .filter(s -> s.query().contains("kind = 1") || s.query().contains("messages_by_previous"))
                .toList();
        List<ReadTraces.Scan> index = scans.stream()
                .filter(s -> !unread.contains(s)
                        && (s.query().contains("inbox_by") || s.query().contains("time_buckets")))
                .toList();
        assertThat(index).as("traced statements of GET /inbox").isNotEmpty();
        return new Cells(ReadTraces.tombstones(index), ReadTraces.tombstones(unread));
    }

    private List<Integer> days(String username) {
        return stored
                .execute("SELECT bucket FROM time_buckets WHERE series = 'inbox' AND entity = ?", username)
                .stream()
                .map(r -> r.getInt("bucket"))
                .toList();
    }
}
