package dev.cqlpatterns.messenger.inbox;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.messenger.MessagePositions;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.time.WriteTimestamps;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.UUID;

/**
 * messages_by_previous: each message with a position under the message before it, so that the message after a
 * member's read_up_to, their first unread one, is one row away whatever the number unread.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class MessagesByPrevious {
    private static final Query INSERT = Cql.idempotent("INSERT INTO messages_by_previous (conversation_id, "
            + "previous_message_id, message_id, sender) VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query AFTER = Cql.idempotent(
            "SELECT message_id, sender FROM messages_by_previous WHERE conversation_id = ? AND previous_message_id = ?");

    @Inject
    Cql cql;

    /** A message and who sent it. */
    record Next(UUID messageId, String sender) {}

    /**
     * Records a claimed message as the one after its previous message (the first with a position after {@link
     * ReadState#NEVER_READ}), with the message's time as write timestamp: a replay writes the same cells.
     */
    public Uni<Void> written(UUID conversationId, MessagePositions.Claimed claimed, String sender) {
        UUID previous = claimed.previousMessageId() == null ? ReadState.NEVER_READ : claimed.previousMessageId();
        return cql.write(
                        INSERT,
                        conversationId,
                        previous,
                        claimed.messageId(),
                        sender,
                        WriteTimestamps.micros(claimed.messageId()))
                .replaceWithVoid();
    }

    /** The message after {@code previous} ({@link ReadState#NEVER_READ}: the first), if one was recorded. */
    Uni<Optional<Next>> after(UUID conversationId, UUID previous) {
        return cql.read(AFTER, conversationId, previous).map(rs -> {
            Row row = rs.one();
            return row == null
                    ? Optional.empty()
                    : Optional.of(new Next(row.getUuid("message_id"), row.getString("sender")));
        });
    }
}
