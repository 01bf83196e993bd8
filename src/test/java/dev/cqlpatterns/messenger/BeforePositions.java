package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.testsupport.StoredRows;
import java.util.UUID;

/**
 * A summary as a release before positions (0.3.0) left it for a member who never marked read since:
 * no others_read, and others_sent counting only the messages sent since. The cells are deleted or
 * written with the timestamps they have, so the service's later writes win as they would.
 */
final class BeforePositions {
    private static final String SUMMARY = "WHERE username = ? AND kind = 0 AND conversation_id = ? AND message_id = ?";

    private BeforePositions() {}

    /** {@code member}'s summary of {@code conversationId} without others_read, and {@code othersSent} if not null. */
    static void summary(StoredRows stored, String member, String conversationId, Long othersSent) {
        UUID id = UUID.fromString(conversationId);
        Row cells = stored.execute(
                        "SELECT writetime(others_read), writetime(others_sent) FROM inbox_by_user " + SUMMARY,
                        member,
                        id,
                        InboxRows.SUMMARY)
                .get(0);
        stored.execute(
                "DELETE others_read FROM inbox_by_user USING TIMESTAMP ? " + SUMMARY,
                cells.getLong(0),
                member,
                id,
                InboxRows.SUMMARY);
        if (othersSent != null) {
            stored.execute(
                    "UPDATE inbox_by_user USING TIMESTAMP ? SET others_sent = ? " + SUMMARY,
                    cells.getLong(1),
                    othersSent,
                    member,
                    id,
                    InboxRows.SUMMARY);
        }
    }
}
