package dev.cqlpatterns.messenger.inbox;

import static dev.cqlpatterns.platform.time.WriteTimestamps.micros;

import dev.cqlpatterns.messenger.Conversations;
import dev.cqlpatterns.messenger.MembershipSet;
import dev.cqlpatterns.messenger.MessagePositions;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.UUID;

/**
 * Lists a conversation in a member's inbox when they join, keeps it listed by its last activity as
 * messages arrive, and takes it out when they leave: the ordered writes that keep the conversation's
 * row in inbox_by_day ({@link InboxDayRows}), its summary in inbox_by_user ({@link InboxRows}) and the
 * user's {@link MembershipSet} in step. Each class runs its own table's statements; this one orders them.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class InboxListing {
    @Inject
    InboxRows rows;

    @Inject
    InboxDayRows days;

    @Inject
    MembershipSet memberships;

    /**
     * The rows that make a conversation {@code c} appear in {@code username}'s inbox at its creation
     * ({@link #joined}), from its start: no message before its members.
     */
    public Uni<Void> created(String username, Conversations.Conversation c, String addedBy) {
        return joined(username, c, c.createdAt(), addedBy, MessagePositions.Head.NONE, false);
    }

    /**
     * The rows that make a group {@code c} appear in the inbox of {@code username}, who joins it at
     * {@code joinedAt} ({@link #joined}). Unread markers a send racing an earlier leave may have left
     * behind are dropped in the summary's batch.
     */
    public Uni<Void> joined(
            String username,
            Conversations.Conversation c,
            Instant joinedAt,
            String addedBy,
            MessagePositions.Head from) {
        return joined(username, c, joinedAt, addedBy, from, true);
    }

    /**
     * The rows that make a conversation appear in {@code username}'s inbox at the join: the row of
     * the join's day in inbox_by_day first, then the summary ({@link InboxRows#joined}). Beside them,
     * with the summary's write timestamp, the membership in the user's {@link MembershipSet}, with
     * {@code addedBy} when someone else put the user in.
     */
    private Uni<Void> joined(
            String username,
            Conversations.Conversation c,
            Instant joinedAt,
            String addedBy,
            MessagePositions.Head from,
            boolean clearUnread) {
        Uni<Void> inbox = days.listed(username, c.id(), joinedAt, micros(joinedAt))
                .chain(() -> rows.joined(username, c, joinedAt, from, clearUnread));
        Uni<Void> member = memberships.joined(username, c.id(), addedBy, joinedAt, micros(joinedAt));
        return Uni.join().all(inbox, member).andFailFast().replaceWithVoid();
    }

    /**
     * The message of {@code d} on its sender's summary ({@link InboxRows#sent}), with its day's row
     * ({@link #delivered}).
     */
    public Uni<Void> sent(Delivery d, Long othersSent, boolean readUpToIt) {
        return delivered(d.sender(), d, rows.sent(d, othersSent, readUpToIt));
    }

    /**
     * The message of {@code d} on the summary of {@code member}, for whom it is unread
     * ({@link InboxRows#received}), with its day's row ({@link #delivered}).
     */
    public Uni<Void> received(String member, Delivery d, Long othersSent) {
        return delivered(member, d, rows.received(member, d, othersSent));
    }

    /**
     * A member's writes of a message (written with the message's time as timestamp), in this order: the
     * inbox_by_day row of the message's day; then {@code summary}, the write of the member's summary;
     * then, when the conversation's previous message ({@link Delivery#replaced}) fell on an earlier
     * day, the delete of that day's row. A writer that stops midway leaves a day row ahead of the
     * summary or behind it, never a summary ahead of every row: the conversation is never missing.
     */
    private Uni<Void> delivered(String username, Delivery d, Uni<Void> summary) {
        return days.listed(username, d.conversationId(), d.at(), d.timestamp())
                .chain(() -> summary)
                .chain(() -> d.replaced() == null
                        ? Uni.createFrom().voidItem()
                        : days.movedOn(username, d.conversationId(), d.replaced(), d.at()));
    }

    /**
     * Forgets a conversation in {@code username}'s inbox: reads the summary's last activity, then
     * deletes the summary and unread markers ({@link InboxRows#forget}), beside it the membership in the
     * user's {@link MembershipSet}, and then the inbox_by_day row of the last activity's day (a re-join
     * writes it again later). Idempotent writes, no logged batch.
     */
    public Uni<Void> forget(String username, UUID conversationId, Instant at) {
        return rows.lastActivity(username, conversationId).chain(lastActivity -> {
            // No summary: nothing listed; the tombstones of rows that never were cost nothing more.
            Instant last = lastActivity == null ? at : lastActivity;
            return Uni.join()
                    .all(
                            rows.forget(username, conversationId, at),
                            memberships.left(username, conversationId, micros(at)))
                    .andFailFast()
                    .chain(() -> days.delete(username, conversationId, last, at));
        });
    }
}
