package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sentQuickly;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.SetGenerations;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * No partition keyed by a recipient grows with the messages they receive (cql/010, cql/015,
 * cql/056): a member who never reads has the same rows after 2,000 messages as after 1,000.
 */
@QuarkusTest
class RecipientPartitionsTest {
    private static final int CONVERSATIONS = 4;
    private static final int MESSAGES_EACH = 250;

    @Inject
    StoredRows stored;

    @Test
    void should_keep_the_same_rows_for_a_member_who_never_reads_after_twice_the_messages() {
        String reader = user("never-reads");
        List<Map.Entry<String, String>> senders = IntStream.range(0, CONVERSATIONS)
                .mapToObj(i -> {
                    String sender = user("sender" + i);
                    return Map.entry(sender, create(sender, List.of(reader), null));
                })
                .toList();
        sendEach(senders);
        Map<String, Long> afterOnce = rows(reader);
        sendEach(senders);
        Map<String, Long> afterTwice = rows(reader);

        assertThat(afterTwice)
                .as(
                        "rows in %s's partitions after %d messages, against after %d",
                        reader, 2 * CONVERSATIONS * MESSAGES_EACH, CONVERSATIONS * MESSAGES_EACH)
                .isEqualTo(afterOnce);
        senders.forEach(s -> assertThat(Chat.inboxEntry(reader, s.getValue())).containsEntry("unreadCount", 100));
    }

    /** {@link #MESSAGES_EACH} messages from each sender to their conversation, all senders at once. */
    private static void sendEach(List<Map.Entry<String, String>> senders) {
        Concurrently.run(senders, s -> {
            for (int n = 0; n < MESSAGES_EACH; n++) {
                sentQuickly(s.getKey(), s.getValue(), "#" + n);
            }
            return s;
        });
    }

    /** The rows of each partition keyed by {@code username}, counted through CQL. */
    private Map<String, Long> rows(String username) {
        Map<String, Long> rows = new LinkedHashMap<>();
        rows.put("inbox_by_user", count("SELECT count(*) FROM inbox_by_user WHERE username = ?", username));
        List<Integer> days =
                stored
                        .execute("SELECT bucket FROM time_buckets WHERE series = 'inbox' AND entity = ?", username)
                        .stream()
                        .map(row -> row.getInt(0))
                        .toList();
        rows.put("time_buckets", (long) days.size());
        for (int day : days) {
            rows.put(
                    "inbox_by_day " + day,
                    count("SELECT count(*) FROM inbox_by_day WHERE username = ? AND day = ?", username, day));
        }
        String set = "conversation_memberships_by_user";
        int generation = SetGenerations.current(stored, set, username);
        rows.put(
                set,
                count("SELECT count(*) FROM " + set + " WHERE username = ? AND generation = ?", username, generation));
        return rows;
    }

    private long count(String cql, Object... values) {
        Row row = stored.execute(cql, values).get(0);
        return row.getLong(0);
    }
}
