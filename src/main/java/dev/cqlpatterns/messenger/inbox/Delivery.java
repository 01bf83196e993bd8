package dev.cqlpatterns.messenger.inbox;

import dev.cqlpatterns.platform.time.TimeUuids;
import dev.cqlpatterns.platform.time.WriteTimestamps;
import java.time.Instant;
import java.util.UUID;

/**
 * A message as every member's inbox gets it: who sent it, its preview, and the time of the message
 * it replaces as the conversation's last (null: nothing to replace, as in a replay).
 */
public record Delivery(UUID conversationId, UUID messageId, String sender, String preview, Instant replaced) {
    /** The message's time. */
    Instant at() {
        return TimeUuids.instant(messageId);
    }

    /** The message's time as the write timestamp of every inbox write: a replay writes the same cells. */
    long timestamp() {
        return WriteTimestamps.micros(messageId);
    }
}
