package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.markRead;
import static dev.cqlpatterns.messenger.Chat.sent;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3Token;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3TokenFactory;
import dev.cqlpatterns.platform.scheduling.DataMigration;
import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import dev.cqlpatterns.testsupport.SignUp;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code job unread-counts} (UnreadCountsFill) gives every summary without others_read the number
 * that keeps the count its markers gave, leaves counted summaries alone, and loses to a mark-read of
 * the same message. The walk starts near the end of the token ring, where the users of this test
 * are, so it visits a sixteenth of the inboxes earlier tests left.
 */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
class UnreadCountsFillTest {
    private static final long WALK_FROM = Long.MAX_VALUE - (1L << 60);
    private static final Murmur3TokenFactory TOKENS = new Murmur3TokenFactory();

    @Inject
    StoredRows stored;

    @Inject
    MovableClock clock;

    @Inject
    Instance<DataMigration> migrations;

    @Inject
    InboxRows inboxRows;

    @AfterEach
    void realTime() {
        clock.reset();
    }

    @Test
    void should_give_every_summary_without_others_read_the_count_its_markers_give() {
        String alice = nearTheRingsEnd("alice");
        String bob = nearTheRingsEnd("bob");
        String cid = nearTheRingsEnd("cid");
        String dee = nearTheRingsEnd("dee");
        // bob: 5 unread, 3 of them counted by others_sent (the 2 before had no position).
        String withBob = create(alice, List.of(bob), null);
        sent(alice, withBob, "one");
        sent(alice, withBob, "two");
        sent(alice, withBob, "three");
        String first = BeforePositions.summaryWithEarlier(stored, bob, withBob, 2)
                .get(0)
                .toString();
        // cid: counted since a mark-read; dee: no message yet, and no others_read.
        String withCid = create(alice, List.of(cid), null);
        sent(alice, withCid, "read");
        markRead(cid, withCid).statusCode(200);
        String unreadByCid = sent(alice, withCid, "unread");
        String withDee = create(alice, List.of(dee), null);
        BeforePositions.summary(stored, dee, withDee);
        Row cidBefore = othersRead(cid, withCid);
        Chat.assertUnread(bob, withBob, 5, first);

        // Past the settle time of every last message: the job counts at once.
        clock.set(Instant.now().plus(Duration.ofMinutes(2)));
        int steps = runToEnd();

        assertThat(steps).as("steps of the walk").isPositive();
        assertThat(othersRead(bob, withBob).getLong(0))
                .as(
                        "bob's others_read: 1 sent since positions - 3 markers; %s, %d steps",
                        othersRead(bob, withBob).getFormattedContents(), steps)
                .isEqualTo(-2);
        assertThat(othersRead(dee, withDee).isNull(0)).as("dee's others_read").isFalse();
        assertThat(othersRead(cid, withCid).getFormattedContents())
                .as("cid's counted summary, value and write time")
                .isEqualTo(cidBefore.getFormattedContents());
        clock.reset();
        Chat.assertUnread(bob, withBob, 5, first);
        Chat.assertUnread(cid, withCid, 1, unreadByCid);
        Chat.assertUnread(dee, withDee, 0, null);
        Chat.readThenOneMore(bob, alice, withBob);
        String toDee = sent(alice, withDee, "first for dee");
        Chat.assertUnread(dee, withDee, 1, toDee);
        assertThat(job().step().get().await().atMost(Duration.ofMinutes(1)))
                .as("a run after the end")
                .isNull();
    }

    @Test
    void should_lose_to_a_mark_read_of_the_last_message_it_counted_to() {
        String alice = Chat.user("alice");
        String bob = Chat.user("bob");
        String id = create(alice, List.of(bob), null);
        sent(alice, id, "one");
        String last = sent(alice, id, "two");
        BeforePositions.summary(stored, bob, id);
        markRead(bob, id).statusCode(200);

        // A run that read the summary before the mark-read, and counted its 2 markers.
        inboxRows
                .fillOthersRead(bob, UUID.fromString(id), 2 - 2, InboxRows.micros(UUID.fromString(last)) - 1)
                .await()
                .atMost(Duration.ofSeconds(10));

        Chat.assertUnread(bob, id, 0, null);
    }

    private int runToEnd() {
        stored.execute(
                "INSERT INTO data_migration_scans (migration, scanned_table, scanned_to) VALUES (?, 'inbox_by_user', ?)",
                UnreadCountsFill.NAME,
                WALK_FROM);
        DataMigration job = job();
        int steps = 0;
        while (job.step().get().await().atMost(Duration.ofMinutes(2)) != null) {
            steps++;
        }
        return steps;
    }

    private DataMigration job() {
        return migrations.stream()
                .filter(m -> m.name().equals(UnreadCountsFill.NAME))
                .findFirst()
                .orElseThrow();
    }

    private Row othersRead(String member, String id) {
        return stored.execute(
                        "SELECT others_read, writetime(others_read) FROM inbox_by_user WHERE username = ? AND kind = 0 "
                                + "AND conversation_id = ? AND message_id = ?",
                        member,
                        UUID.fromString(id),
                        InboxRows.SUMMARY)
                .get(0);
    }

    /** A signed-up user whose inbox_by_user partition is at the ring's end. */
    private static String nearTheRingsEnd(String prefix) {
        while (true) {
            String name =
                    prefix + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
            ByteBuffer key = ByteBuffer.wrap(name.getBytes(StandardCharsets.UTF_8));
            if (((Murmur3Token) TOKENS.hash(key)).getValue() >= WALK_FROM) {
                return SignUp.user(name);
            }
        }
    }
}
