package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.test.junit.QuarkusTest;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The inbox read through inbox_by_day (cql/015_inbox_by_day.cql): InboxOrderTest's cases, rows that
 * are not listed (ahead of their summary, behind it, of a conversation the caller is not in), and the
 * first read of a user whose summaries were written before the index. Days that pass: InboxAgedTest.
 */
@QuarkusTest
class InboxByDayTest extends InboxOrderTest {
    private static final Granularity DAY = Granularity.DAY;

    @Override
    List<String> indexRows(String username) {
        return dayRows(username, Instant.now()).stream()
                .map(r -> r.getUuid("conversation_id").toString())
                .toList();
    }

    @Test
    void should_never_list_a_conversation_twice_or_out_of_place_for_a_row_that_is_not_its_place() {
        String alice = user("alice");
        String older = create(alice, List.of(user("bob")), null);
        sent(alice, older, "first");
        String newer = create(alice, List.of(user("carol")), null);
        String newest = sent(alice, newer, "second");
        Chat.inbox(alice);

        // A row of the older conversation on a later day (a send that stopped before its summary), a row
        // of a conversation alice is not in, and a row of the newer one on an earlier day (behind its summary).
        Instant top = TimeUuids.instant(UUID.fromString(newest));
        Instant tomorrow = top.plus(1, ChronoUnit.DAYS);
        Instant yesterday = top.minus(1, ChronoUnit.DAYS);
        insertDayRow(alice, tomorrow, older);
        insertDayRow(alice, tomorrow, UUID.randomUUID().toString());
        insertDayRow(alice, yesterday, newer);

        Chat.inbox(alice)
                .body("items.conversationId", equalTo(List.of(newer, older)))
                .body("items[0].lastMessageId", equalTo(newest));
        assertThat(pages(alice, 1)).containsExactly(newer, older);
    }

    @Test
    void should_index_the_summaries_written_before_it_on_the_first_read() {
        // Summaries as the service wrote them before cql/015: no day rows, no day listed, days_indexed unset.
        String alice = user("alice");
        Instant start = Instant.now().minus(3, ChronoUnit.DAYS).truncatedTo(ChronoUnit.MILLIS);
        List<String> ids = summariesWithoutIndex(alice, start, Duration.ofDays(1));

        Chat.inbox(alice)
                .body("items.conversationId", equalTo(ids))
                .body("items.unreadCount", equalTo(List.of(1, 1, 1)));
        assertThat(stored.execute("SELECT bucket FROM time_buckets WHERE series = 'inbox' AND entity = ?", alice))
                .hasSize(3);
        // From now on, the index: the days, each day's rows (a page of 50 walks them all) and their
        // summaries; each one unread message is the last one, so nothing more.
        Chat.inbox(alice)
                .header("X-Statements", equalTo("7"))
                .body("items.conversationId", equalTo(ids))
                .body("items.unreadCount", equalTo(List.of(1, 1, 1)));
        assertThat(pages(alice, 1)).isEqualTo(ids);
    }

    private List<Row> dayRows(String username, Instant day) {
        return stored.execute(
                "SELECT conversation_id, last_at FROM inbox_by_day WHERE username = ? AND day = ?",
                username,
                DAY.key(day));
    }

    /** A row of inbox_by_day as a writer that stopped half way leaves it, and its day listed. */
    private void insertDayRow(String username, Instant at, String conversationId) {
        Instant ms = at.truncatedTo(ChronoUnit.MILLIS);
        stored.execute(
                "INSERT INTO inbox_by_day (username, day, conversation_id, last_at) VALUES (?, ?, ?, ?) "
                        + "USING TIMESTAMP ?",
                username,
                DAY.key(ms),
                UUID.fromString(conversationId),
                ms,
                ChronoUnit.MICROS.between(Instant.EPOCH, ms));
        stored.execute(
                "INSERT INTO time_buckets (series, entity, bucket) VALUES ('inbox', ?, ?)", username, DAY.key(ms));
    }
}
