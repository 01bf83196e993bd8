package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.SetGenerations;
import dev.cqlpatterns.testsupport.StoredRows;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.net.URL;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * No partition keyed by a recipient grows with the messages they receive (cql/010, cql/015,
 * cql/056): a member who never reads has the same rows after 4,000 messages as after 2,000.
 */
@QuarkusTest
class RecipientPartitionsTest {
    private static final int CONVERSATIONS = 4;
    private static final int MESSAGES_EACH = 500;

    @TestHTTPResource("/")
    URL root;

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
        FastSends http = new FastSends(root);

        sendEach(http, senders);
        Map<String, Long> after2000 = rows(reader);
        sendEach(http, senders);
        Map<String, Long> after4000 = rows(reader);

        assertThat(after4000)
                .as(
                        "rows in %s's partitions after %d messages, against after %d",
                        reader, 2 * CONVERSATIONS * MESSAGES_EACH, CONVERSATIONS * MESSAGES_EACH)
                .isEqualTo(after2000);
        senders.forEach(s -> assertThat(Chat.inboxEntry(reader, s.getValue())).containsEntry("unreadCount", 100));
    }

    /** {@link #MESSAGES_EACH} messages from each sender to their conversation, all senders at once. */
    private static void sendEach(FastSends http, List<Map.Entry<String, String>> senders) {
        Concurrently.run(senders, s -> {
            String token = Tokens.bearer(s.getKey());
            for (int n = 0; n < MESSAGES_EACH; n++) {
                http.send(token, s.getValue(), "#" + n);
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
