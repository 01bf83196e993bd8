package dev.cqlpatterns.messenger.inbox;

import static dev.cqlpatterns.platform.time.WriteTimestamps.micros;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.messenger.Conversations;
import dev.cqlpatterns.messenger.MessagePositions;
import dev.cqlpatterns.messenger.MessengerSettings;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * inbox_by_user, a user's inbox: every statement on it and how its rows read. Per conversation, the
 * summary row (kind 0), which holds the unread count (others_sent, others_read), and the unread
 * markers (kind 1), where the inbox finds the first unread message that messages_by_previous does not
 * name. {@link InboxListing} orders these writes with those of inbox_by_day and MembershipSet. Every
 * write carries an explicit write timestamp in microseconds of the service clock or of a message's
 * time.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class InboxRows {
    /** message_id of a summary row: clustering columns cannot be null, so a fixed zero timeuuid. */
    public static final UUID SUMMARY = new UUID(0x0000000000001000L, 0x8000000000000000L);

    // inbox_by_user: a summary row per conversation (kind 0) and its unread markers (kind 1),
    // in one partition per user. The kind is the first clustering column, so each kind is
    // one slice.
    private static final String SUMMARY_ROWS = "username = ? AND kind = 0";
    private static final String UNREAD_ROWS = "username = ? AND kind = 1";

    private static final Query INSERT_SUMMARY = Cql.idempotent("INSERT INTO inbox_by_user (username, kind, "
            + "conversation_id, message_id, title, partner, direct, joined_at, others_read, read_up_to) "
            + "VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE_SUMMARY = Cql.idempotent("DELETE FROM inbox_by_user USING TIMESTAMP ? WHERE "
            + SUMMARY_ROWS + " AND conversation_id = ? AND message_id = ?");
    private static final Query LAST_ACTIVITY = Cql.idempotent("SELECT joined_at, last_message_id FROM inbox_by_user "
            + "WHERE " + SUMMARY_ROWS + " AND conversation_id = ? AND message_id = ?");
    private static final Query READ_STATE = Cql.idempotent("SELECT read_up_to, others_sent, others_read, "
            + "last_message_id, joined_at FROM inbox_by_user WHERE " + SUMMARY_ROWS
            + " AND conversation_id = ? AND message_id = ?");
    /** How far the user has read a conversation, and how many of the messages from others that is. */
    private static final Query SET_READ_UP_TO =
            Cql.idempotent("UPDATE inbox_by_user USING TIMESTAMP ? SET read_up_to = ?, others_read = ? " + "WHERE "
                    + SUMMARY_ROWS + " AND conversation_id = ? AND message_id = ?");
    /**
     * The newest message, on the sender's summary, with the messages from others up to it
     * (others_sent), and read_up_to with others_read where the sender had read everything before it
     * (the message after read_up_to is the first unread one, messages_by_previous; unset where not).
     */
    private static final Query SET_LAST_MESSAGE = Cql.idempotent(
            "UPDATE inbox_by_user USING TIMESTAMP ? SET last_message_id = ?, last_sender = ?, last_preview = ?, "
                    + "others_sent = ?, read_up_to = ?, others_read = ? WHERE " + SUMMARY_ROWS
                    + " AND conversation_id = ? AND message_id = ?");
    /** The newest message, on the summary of a member it is unread for, with others_sent. */
    private static final Query SET_LAST_UNREAD = Cql.idempotent(
            "UPDATE inbox_by_user USING TIMESTAMP ? SET last_message_id = ?, last_sender = ?, last_preview = ?, "
                    + "others_sent = ? WHERE " + SUMMARY_ROWS + " AND conversation_id = ? AND message_id = ?");
    /** With the static days_indexed (whether the user's days are in inbox_by_day), which comes with every row. */
    private static final String SUMMARY_COLUMNS = "conversation_id, title, partner, direct, joined_at, "
            + "last_message_id, last_sender, last_preview, read_up_to, others_sent, others_read, "
            + "days_indexed "
            + "FROM inbox_by_user WHERE " + SUMMARY_ROWS;
    /** Every summary of a user. */
    private static final Query SUMMARIES = Cql.idempotent("SELECT " + SUMMARY_COLUMNS);
    /** The summaries of some conversations (an index read named them). */
    private static final Query SOME_SUMMARIES =
            Cql.idempotent("SELECT " + SUMMARY_COLUMNS + " AND conversation_id IN ?");

    private static final Query DELETE_ALL_UNREAD = Cql.idempotent(
            "DELETE FROM inbox_by_user USING TIMESTAMP ? WHERE " + UNREAD_ROWS + " AND conversation_id = ?");
    /** Inbox: the oldest unread marker of one conversation after read_up_to. */
    private static final Query OLDEST_UNREAD =
            Cql.idempotent("SELECT message_id FROM inbox_by_user WHERE " + UNREAD_ROWS
                    + " AND conversation_id = ? AND message_id > ? ORDER BY kind DESC, conversation_id DESC, message_id ASC "
                    + "LIMIT 1");
    /** Clears the markers up to the newest read, in one range deletion. */
    private static final Query CLEAR_UNREAD = Cql.idempotent("DELETE FROM inbox_by_user USING TIMESTAMP ? WHERE "
            + UNREAD_ROWS + " AND conversation_id = ? AND message_id <= ?");

    private static final Query DAYS_INDEXED =
            Cql.idempotent("UPDATE inbox_by_user USING TIMESTAMP ? SET days_indexed = true WHERE username = ?");
    /** The static row only (SELECT DISTINCT reads no clustering row, so no summary and no tombstone). */
    private static final Query READ_DAYS_INDEXED =
            Cql.idempotent("SELECT DISTINCT username, days_indexed FROM inbox_by_user WHERE username = ?");

    @Inject
    Cql cql;

    @Inject
    MessengerSettings settings;

    /**
     * The summary of {@code c} in {@code username}'s inbox from the join at {@code joinedAt}, after the
     * clearing of every unread marker when {@code clearUnread}, in one unlogged batch of the user's
     * partition. The summary starts at {@code from}: the conversation's last message when the member
     * joined, as if read (others_read).
     */
    Uni<Void> joined(
            String username,
            Conversations.Conversation c,
            Instant joinedAt,
            MessagePositions.Head from,
            boolean clearUnread) {
        List<Uni<BoundStatement>> batch = new ArrayList<>();
        if (clearUnread) {
            batch.add(clearUnread(username, c.id(), joinedAt));
        }
        // A 1:1 has no title, a group no partner: left unset, since a null would write a cell tombstone
        // that every read of the summary scans.
        String partner = c.partnerOf(username);
        batch.add(cql.bind(
                        INSERT_SUMMARY,
                        username,
                        c.id(),
                        SUMMARY,
                        c.title(),
                        partner,
                        c.direct(),
                        joinedAt,
                        from.othersSent(username),
                        from.lastMessageId(),
                        micros(joinedAt))
                .map(s -> {
                    BoundStatement bound = c.title() == null ? s.unset("title") : s;
                    bound = from.lastMessageId() == null ? bound.unset("read_up_to") : bound;
                    return partner == null ? bound.unset("partner") : bound;
                }));
        return cql.onePartition(batch).replaceWithVoid();
    }

    /**
     * The message of {@code d} on its sender's summary, as last message with the messages from others
     * up to it ({@code othersSent}; null: the message has no position, and the count stays as it is);
     * and, when {@code readUpToIt}, the sender's read_up_to moved to it with others_read: the message
     * after any read_up_to is then someone else's, the first unread one (messages_by_previous).
     */
    Uni<Void> sent(Delivery d, Long othersSent, boolean readUpToIt) {
        long count = othersSent == null ? 0 : othersSent;
        Uni<BoundStatement> summary = cql.bind(
                        SET_LAST_MESSAGE,
                        d.timestamp(),
                        d.messageId(),
                        d.sender(),
                        d.preview(),
                        count,
                        d.messageId(),
                        count,
                        d.sender(),
                        d.conversationId(),
                        SUMMARY)
                .map(s -> readUpToIt ? s : s.unset("read_up_to").unset("others_read"));
        return summary(summary, othersSent);
    }

    /**
     * The message of {@code d} on the summary of {@code member}, for whom it is unread: as last message,
     * with the messages from others up to it ({@code othersSent}; null: left as it is).
     */
    Uni<Void> received(String member, Delivery d, Long othersSent) {
        Uni<BoundStatement> summary = cql.bind(
                SET_LAST_UNREAD,
                d.timestamp(),
                d.messageId(),
                d.sender(),
                d.preview(),
                othersSent == null ? 0 : othersSent,
                member,
                d.conversationId(),
                SUMMARY);
        return summary(summary, othersSent);
    }

    /**
     * A summary's write of a message, in one unlogged batch of the member's partition; with no
     * others_sent cell for a message without a position, which leaves the member's count as it is.
     */
    private Uni<Void> summary(Uni<BoundStatement> statement, Long othersSent) {
        Uni<BoundStatement> counted = othersSent == null ? statement.map(s -> s.unset("others_sent")) : statement;
        return cql.onePartition(List.of(counted)).replaceWithVoid();
    }

    /**
     * The user's days are in inbox_by_day from now on (the static days_indexed), once InboxByDay has
     * written the rows of a user's summaries there.
     */
    Uni<Void> markDaysIndexed(String username, Instant now) {
        return cql.write(DAYS_INDEXED, micros(now), username).replaceWithVoid();
    }

    /** Whether the user's days are in inbox_by_day (days_indexed). */
    Uni<Boolean> daysIndexed(String username) {
        return cql.read(READ_DAYS_INDEXED, username).map(rs -> {
            Row row = rs.one();
            return row != null && Boolean.TRUE.equals(row.get("days_indexed", Boolean.class));
        });
    }

    /** Every summary of a user's inbox, in one page: the partition is bounded by the user's conversations. */
    Uni<List<Row>> everySummary(String username) {
        int pageSize = settings.maxInboxConversations() + 100;
        return cql.read(SUMMARIES, b -> b.setPageSize(pageSize), username).chain(rs -> all(rs, new ArrayList<>()));
    }

    /** The summaries of {@code ids} in the user's inbox, the ones not found left out. */
    Uni<List<Row>> summaries(String username, List<UUID> ids) {
        return cql.read(SOME_SUMMARIES, username, ids).map(Cql::rows);
    }

    /**
     * The time of the user's oldest unread marker in a conversation after {@code after}, null when there
     * is none: the first unread message where no messages_by_previous row names it.
     */
    Uni<Instant> oldestUnreadMarker(String username, UUID conversationId, UUID after) {
        return cql.read(OLDEST_UNREAD, username, conversationId, after).map(rs -> {
            Row oldest = rs.one();
            return oldest == null ? null : TimeUuids.instant(oldest.getUuid(0));
        });
    }

    /** Further pages of the same partition, should it hold more rows than one page (a cap raised). */
    private Uni<List<Row>> all(AsyncResultSet rs, List<Row> rows) {
        rows.addAll(Cql.rows(rs));
        if (!rs.hasMorePages()) {
            return Uni.createFrom().item(rows);
        }
        return cql.call(0, rs::fetchNextPage).chain(next -> all(next, rows));
    }

    public Uni<ReadState> readState(String username, UUID conversationId) {
        return cql.read(READ_STATE, username, conversationId, SUMMARY).map(rs -> {
            Row row = rs.one();
            if (row == null) {
                return ReadState.NONE;
            }
            return new ReadState(
                    row.getUuid("read_up_to"),
                    row.getLong("others_sent"),
                    row.getLong("others_read"),
                    !row.isNull("others_read"),
                    row.getUuid("last_message_id"),
                    row.getInstant("joined_at"));
        });
    }

    /** The last activity of the user's summary of a conversation ({@link Summary#lastAtOf}), null without one. */
    Uni<Instant> lastActivity(String username, UUID conversationId) {
        return cql.read(LAST_ACTIVITY, username, conversationId, SUMMARY).map(rs -> {
            Row summary = rs.one();
            return summary == null ? null : Summary.lastAtOf(summary);
        });
    }

    /**
     * Deletes the user's summary of a conversation and its unread markers as of {@code at}, in one
     * unlogged batch of the user's partition.
     */
    Uni<Void> forget(String username, UUID conversationId, Instant at) {
        return cql.onePartition(List.of(
                        cql.bind(DELETE_SUMMARY, micros(at), username, conversationId, SUMMARY),
                        clearUnread(username, conversationId, at)))
                .replaceWithVoid();
    }

    /**
     * Drops every unread marker of a conversation (a send racing a leave can leave some behind).
     * The summary stays: a join writes it with the same timestamp, where a tombstone would win.
     */
    private Uni<BoundStatement> clearUnread(String username, UUID conversationId, Instant at) {
        return cql.bind(DELETE_ALL_UNREAD, micros(at), username, conversationId);
    }

    /**
     * The user has read the conversation up to {@code upTo}, its last message, and {@code othersRead}
     * messages from others with it: their unread markers up to it are deleted with one range
     * tombstone, then read_up_to and others_read are set. Both carry the message's time as write
     * timestamp: the newest message read wins, whichever replica's clock is ahead.
     */
    public Uni<Void> markRead(String username, UUID conversationId, UUID upTo, long othersRead) {
        long timestamp = micros(upTo);
        return cql.write(CLEAR_UNREAD, timestamp, username, conversationId, upTo)
                .chain(() -> cql.write(SET_READ_UP_TO, timestamp, upTo, othersRead, username, conversationId, SUMMARY))
                .replaceWithVoid();
    }
}
