package dev.cqlpatterns.messenger.inbox;

import dev.cqlpatterns.platform.time.TimeUuids;
import java.time.Instant;
import java.util.UUID;

/**
 * How far the user has read a conversation: where the last mark-read (or the join) ended, null
 * when neither says (then from the join, {@code joinedAt}); the messages from others so far and
 * how many of them were read (message_positions); and the last message. All null when not a member.
 */
public record ReadState(
        UUID readUpTo, long othersSent, long othersRead, boolean counted, UUID lastMessageId, Instant joinedAt) {
    /** read_up_to of a conversation never marked read: below every timeuuid the service makes. */
    public static final UUID NEVER_READ = TimeUuids.startOf(TimeUuids.EARLIEST);

    static final ReadState NONE = new ReadState(null, 0, 0, false, null, null);

    /**
     * Whether a member has read every message from others before the one they send now, of which
     * there are {@code othersSentBefore} (its position's count for them).
     */
    public boolean readEverythingBefore(long othersSentBefore) {
        return joinedAt != null && counted && othersRead == othersSentBefore;
    }

    /** The read position as a timeuuid: the last message read, or the start of the join's millisecond. */
    public UUID from() {
        return readUpTo != null ? readUpTo : joinedAt != null ? TimeUuids.startOf(joinedAt) : NEVER_READ;
    }
}
