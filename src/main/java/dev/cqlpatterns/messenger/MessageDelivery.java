package dev.cqlpatterns.messenger;

import dev.cqlpatterns.messenger.inbox.Delivery;
import dev.cqlpatterns.messenger.inbox.InboxListing;
import dev.cqlpatterns.messenger.inbox.MessagesByPrevious;
import dev.cqlpatterns.messenger.inbox.ReadState;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The writes of a planned message, each idempotent so the whole send can be replayed: the message
 * row in its month, then together the message under the one before it (messages_by_previous) and
 * every member's inbox summary, with the conversation row naming it as its last message.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
class MessageDelivery {
    @Inject
    Messages messages;

    @Inject
    Conversations conversations;

    @Inject
    InboxListing inbox;

    @Inject
    MessagesByPrevious next;

    @Inject
    MessengerSettings settings;

    /**
     * The writes of a send; run again for the same plan, they write the same cells. {@code claimed}:
     * the message's position, null when it has none (a key first claimed by a release that did not
     * claim positions).
     */
    Uni<Void> write(
            Conversations.Conversation c,
            UUID messageId,
            List<String> planned,
            MessagePositions.Claimed claimed,
            ReadState read,
            String sender,
            String content,
            Map<String, String> attachments) {
        UUID conversationId = c.id();
        Set<String> recipients = new TreeSet<>(planned);
        UUID previous = claimed != null ? claimed.previousMessageId() : c.lastMessageId();
        return messages.insert(conversationId, messageId, sender, content, recipients, attachments)
                .chain(() -> Uni.join()
                        .all(
                                deliver(
                                        conversationId,
                                        messageId,
                                        previous,
                                        claimed,
                                        read,
                                        sender,
                                        content,
                                        recipients),
                                claimed == null
                                        ? Uni.createFrom().voidItem()
                                        : next.written(conversationId, claimed, sender))
                        .andFailFast()
                        .replaceWithVoid());
    }

    /**
     * The inbox writes of a message: on every member's summary the last message and the messages from
     * others up to it (others_sent), which count it unread for each recipient. Written with the
     * message's time as timestamp, so running them again changes nothing that a newer message, a
     * mark-read or a leave has written since. Around them each member's place in the order of last
     * activity moves (inbox_by_day); the conversation row then names this message as the one to
     * replace next time. The sender's read_up_to moves to the message when they had read every message
     * from others before it ({@code read}, read beside the claim), also after two sends of theirs that
     * raced.
     */
    private Uni<Void> deliver(
            UUID conversationId,
            UUID messageId,
            UUID previous,
            MessagePositions.Claimed claimed,
            ReadState read,
            String sender,
            String content,
            Set<String> recipients) {
        Instant at = TimeUuids.instant(messageId);
        // A replay finds this message (or a newer one) as the previous one: nothing to replace then.
        Instant replaced =
                previous != null && TimeUuids.instant(previous).isBefore(at) ? TimeUuids.instant(previous) : null;
        Delivery delivery = new Delivery(conversationId, messageId, sender, preview(content), replaced);
        List<Uni<Void>> writes = new ArrayList<>();
        writes.add(conversations.setLastMessage(conversationId, messageId));
        boolean readUpToIt = claimed != null && read.readEverythingBefore(claimed.othersSent(sender));
        writes.add(inbox.sent(delivery, othersSent(claimed, sender), readUpToIt));
        for (String member : recipients) {
            writes.add(inbox.received(member, delivery, othersSent(claimed, member)));
        }
        return Uni.join().all(writes).andFailFast().replaceWithVoid();
    }

    /** Messages from others than {@code member} up to this one; null for a message without a position. */
    private static Long othersSent(MessagePositions.Claimed claimed, String member) {
        return claimed == null ? null : claimed.othersSent(member);
    }

    /** At most preview-length characters (code points), the ellipsis included: a longer message is cut before it. */
    private String preview(String content) {
        String stripped = content.strip();
        int max = settings.previewLength();
        if (Text.length(stripped) <= max) {
            return stripped;
        }
        return stripped.substring(0, stripped.offsetByCodePoints(0, max - 1)) + "…";
    }
}
