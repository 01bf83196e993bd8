package dev.cqlpatterns.messenger.inbox;

import dev.cqlpatterns.messenger.MessengerSettings;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Unread counts for a page of the inbox. A summary counts what its member has not read as a
 * difference of two numbers on it, the messages from others so far and how many of them were read
 * (others_sent - others_read): no read for the count, whatever the number unread. Where
 * some are unread, the first of them is the message after read_up_to, one row of
 * messages_by_previous, none read when the one unread message is the last message; the
 * member's oldest unread marker (inbox_by_user) where that row is missing (a message sent before 0.11.0,
 * whose marker is still there until the member reads it).
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
class UnreadCounts {
    /** The caller's own messages passed after read_up_to before the first unread is looked for in markers. */
    private static final int OWN_MESSAGES_PASSED = 3;

    @Inject
    MessengerSettings settings;

    @Inject
    MessagesByPrevious next;

    @Inject
    InboxRows inboxRows;

    /** The unread counts of a page's conversations, by conversation id (none: nothing unread). */
    Uni<Map<UUID, Unread>> of(String me, List<Summary> page) {
        long capped = settings.unreadCountCap() + 1L;
        List<Uni<Map<UUID, Unread>>> reads = new ArrayList<>();
        for (Summary s : page) {
            long unread = s.unread();
            if (unread == 1 && !me.equals(s.row().getString("last_sender"))) {
                // One unread, and the last message is someone else's: that one (others_sent is written with it).
                reads.add(Uni.createFrom().item(Map.of(s.id(), new Unread(1, s.lastAt()))));
            } else if (unread > 0) {
                reads.add(firstFromOthers(me, s, s.readUpTo(), OWN_MESSAGES_PASSED)
                        .map(first -> Map.of(s.id(), new Unread((int) Math.min(unread, capped), first))));
            }
        }
        return Uni.join().all(reads).andFailFast().map(counts -> {
            Map<UUID, Unread> byId = new HashMap<>();
            counts.forEach(byId::putAll);
            return byId;
        });
    }

    /**
     * The time of the first message from someone else after {@code after}: the message after it
     * (messages_by_previous), someone else's wherever its sender's read_up_to moved with it,
     * else the next one, at most {@link #OWN_MESSAGES_PASSED} of the caller's own passed (their send
     * racing their mark-read); when none is recorded, or more of their own come, the oldest unread
     * marker's (inbox_by_user).
     */
    private Uni<Instant> firstFromOthers(String me, Summary s, UUID after, int ownToPass) {
        return next.after(s.id(), after).chain(found -> {
            if (found.isPresent() && !me.equals(found.get().sender())) {
                return Uni.createFrom().item(TimeUuids.instant(found.get().messageId()));
            }
            return found.isPresent() && ownToPass > 0
                    ? firstFromOthers(me, s, found.get().messageId(), ownToPass - 1)
                    : inboxRows.oldestUnreadMarker(me, s.id(), s.readUpTo());
        });
    }

    /** A conversation's unread messages: how many (at most cap + 1) and the oldest's time. */
    record Unread(int count, Instant first) {
        static final Unread NONE = new Unread(0, null);
    }
}
