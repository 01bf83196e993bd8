package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.time.TimeUuids;
import dev.cqlpatterns.testsupport.StoredRows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * A summary as a release before positions (0.3.0) left it for a member who never marked read since:
 * no others_read. Cells are deleted with the timestamps they have, so the service's later writes win
 * as they would.
 */
final class BeforePositions {
    private static final String SUMMARY = "WHERE username = ? AND kind = 0 AND conversation_id = ? AND message_id = ?";

    private BeforePositions() {}

    /** {@code member}'s summary of {@code conversationId} without others_read. */
    static void summary(StoredRows stored, String member, String conversationId) {
        UUID id = UUID.fromString(conversationId);
        Row cells = stored.execute(
                        "SELECT writetime(others_read) FROM inbox_by_user " + SUMMARY, member, id, InboxRows.SUMMARY)
                .get(0);
        stored.execute(
                "DELETE others_read FROM inbox_by_user USING TIMESTAMP ? " + SUMMARY,
                cells.getLong(0),
                member,
                id,
                InboxRows.SUMMARY);
    }

    /**
     * As {@link #summary}, and {@code n} messages sent to {@code member} before positions, just
     * before the conversation's first message: their unread markers (others_sent does not count them),
     * and no messages_by_previous row before the first message (a release before 0.11.0 sent it).
     * Their ids, oldest first.
     */
    static List<UUID> summaryWithEarlier(StoredRows stored, String member, String conversationId, int n) {
        summary(stored, member, conversationId);
        UUID id = UUID.fromString(conversationId);
        UUID first = stored.execute(
                        "SELECT message_id FROM messages_by_previous WHERE conversation_id = ? AND previous_message_id = ?",
                        id,
                        InboxRows.NEVER_READ)
                .get(0)
                .getUuid(0);
        stored.execute(
                "DELETE FROM messages_by_previous USING TIMESTAMP ? WHERE conversation_id = ? AND previous_message_id = ?",
                InboxRows.micros(first),
                id,
                InboxRows.NEVER_READ);
        List<UUID> earlier = new ArrayList<>();
        for (int i = n; i > 0; i--) {
            UUID marker = TimeUuids.startOf(TimeUuids.instant(first).minus(Duration.ofMillis(i)));
            stored.execute(
                    "INSERT INTO inbox_by_user (username, kind, conversation_id, message_id) VALUES (?, 1, ?, ?) "
                            + "USING TIMESTAMP ?",
                    member,
                    id,
                    marker,
                    InboxRows.micros(marker));
            earlier.add(marker);
        }
        return earlier;
    }
}
