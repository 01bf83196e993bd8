package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * A user's inbox, and every statement on its tables: in inbox_by_user (cql/010_messenger.cql) the
 * summary row of a conversation (kind 0), which holds the unread count (cql/054), and the unread
 * markers releases before 0.13.0 wrote (kind 1), where the inbox finds the first unread message that
 * messages_by_previous (cql/061) does not name;
 * its place in the order of last activity, in inbox_by_day with the days listed in time_buckets
 * (cql/015), with the user's MembershipSet beside. Every write carries an explicit write timestamp in
 * microseconds of the service clock or of a message's time.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class InboxRows {
    /** message_id of a summary row: clustering columns cannot be null, so a fixed zero timeuuid. */
    static final UUID SUMMARY = new UUID(0x0000000000001000L, 0x8000000000000000L);
    /** read_up_to of a conversation never marked read: below every timeuuid the service makes. */
    static final UUID NEVER_READ = TimeUuids.startOf(TimeUuids.EARLIEST);

    private static final long UUID_EPOCH_MICROS = 12_219_292_800_000_000L;

    // inbox_by_user: a summary row per conversation (kind 0) and the unread markers left (kind 1, cql/013),
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
    /** MarkRead: how far the user has read a conversation, and how many of the messages from others that is. */
    static final Query SET_READ_UP_TO =
            Cql.idempotent("UPDATE inbox_by_user USING TIMESTAMP ? SET read_up_to = ?, others_read = ? " + "WHERE "
                    + SUMMARY_ROWS + " AND conversation_id = ? AND message_id = ?");
    /**
     * SendMessage: the newest message, on the sender's summary, with the messages from others up to it
     * (cql/054), and read_up_to with others_read where the sender had read everything before it
     * (cql/061; unset where not).
     */
    static final Query SET_LAST_MESSAGE = Cql.idempotent(
            "UPDATE inbox_by_user USING TIMESTAMP ? SET last_message_id = ?, last_sender = ?, last_preview = ?, "
                    + "others_sent = ?, read_up_to = ?, others_read = ? WHERE " + SUMMARY_ROWS
                    + " AND conversation_id = ? AND message_id = ?");
    /** SendMessage: the newest message, on the summary of a member it is unread for (cql/054). */
    static final Query SET_LAST_UNREAD = Cql.idempotent(
            "UPDATE inbox_by_user USING TIMESTAMP ? SET last_message_id = ?, last_sender = ?, last_preview = ?, "
                    + "others_sent = ? WHERE " + SUMMARY_ROWS + " AND conversation_id = ? AND message_id = ?");
    /** With the static days_indexed (cql/015), which comes with every row. */
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
    /** Inbox: the oldest unread marker of one conversation after read_up_to (a message sent before 0.11.0). */
    private static final Query OLDEST_UNREAD =
            Cql.idempotent("SELECT message_id FROM inbox_by_user WHERE " + UNREAD_ROWS
                    + " AND conversation_id = ? AND message_id > ? ORDER BY kind DESC, conversation_id DESC, message_id ASC "
                    + "LIMIT 1");
    /** MarkRead: clears the markers up to the newest read, in one range deletion. */
    static final Query CLEAR_UNREAD = Cql.idempotent("DELETE FROM inbox_by_user USING TIMESTAMP ? WHERE " + UNREAD_ROWS
            + " AND conversation_id = ? AND message_id <= ?");

    private static final Query DAYS_INDEXED =
            Cql.idempotent("UPDATE inbox_by_user USING TIMESTAMP ? SET days_indexed = true WHERE username = ?");
    /** InboxByDay: the static row only (SELECT DISTINCT reads no clustering row, so no summary and no tombstone). */
    static final Query READ_DAYS_INDEXED =
            Cql.idempotent("SELECT DISTINCT username, days_indexed FROM inbox_by_user WHERE username = ?");

    // inbox_by_day (cql/015): the user's conversations by the day of their last activity.
    /** The days of a user's activity: one bucket per UTC day, kept as long as the conversations. */
    static final TimeSeries DAYS = TimeSeries.perEntity("inbox", Granularity.DAY, Optional.empty());

    private static final Query INSERT_DAY = Cql.idempotent(
            "INSERT INTO inbox_by_day (username, day, conversation_id, last_at) VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE_DAY = Cql.idempotent(
            "DELETE FROM inbox_by_day USING TIMESTAMP ? WHERE username = ? AND day = ? AND conversation_id = ?");
    /** InboxByDay: one day's rows. */
    static final Query DAY_ROWS =
            Cql.idempotent("SELECT conversation_id, last_at FROM inbox_by_day WHERE username = ? AND day = ?");

    @Inject
    Cql cql;

    @Inject
    BucketRegistry buckets;

    @Inject
    MessengerSettings settings;

    @Inject
    MembershipSet memberships;

    /**
     * The rows that make a conversation appear in {@code username}'s inbox at the join: the row of
     * the join's day (cql/015) first, then the summary with {@code alsoInBatch}, statements of the
     * same partition, in one unlogged batch. The summary starts
     * at {@code from}: the conversation's last message when the member joined, as if read (cql/054).
     * Beside them, with the summary's write timestamp, the membership in the user's
     * {@link MembershipSet}, with {@code addedBy} when someone else put the user in.
     */
    Uni<Void> joined(
            String username,
            Conversations.Conversation c,
            Instant joinedAt,
            String addedBy,
            MessagePositions.Head from,
            List<Uni<BoundStatement>> alsoInBatch) {
        List<Uni<BoundStatement>> batch = new ArrayList<>(alsoInBatch);
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
        Uni<Void> inbox = dayRow(username, c.id(), joinedAt, micros(joinedAt))
                .chain(() -> together(batch))
                .replaceWithVoid();
        Uni<Void> member = memberships.joined(username, c.id(), addedBy, joinedAt, micros(joinedAt));
        return Uni.join().all(inbox, member).andFailFast().replaceWithVoid();
    }

    /**
     * A member's writes of a message at {@code at} (written with {@code timestamp}, the message's
     * time), in cql/015's order: the row of the message's day; then {@code summary}, statements of
     * the member's partition, in one unlogged batch; then, when the conversation's {@code previous}
     * message fell on an earlier day, the delete of that day's row. {@code previous} is null when there is nothing to replace.
     */
    Uni<Void> delivered(
            String username,
            UUID conversationId,
            Instant at,
            long timestamp,
            Instant previous,
            List<Uni<BoundStatement>> summary) {
        return dayRow(username, conversationId, at, timestamp)
                .chain(() -> together(summary))
                .chain(() -> previous == null
                        ? Uni.createFrom().voidItem()
                        : movedOn(username, conversationId, previous, at));
    }

    /** Lists the day of {@code at} among the user's days, then writes the conversation's row of that day. */
    private Uni<Void> dayRow(String username, UUID conversationId, Instant at, long timestamp) {
        Instant ms = at.truncatedTo(ChronoUnit.MILLIS);
        return buckets.record(DAYS, username, ms)
                .chain(day -> cql.write(INSERT_DAY, username, day, conversationId, ms, timestamp))
                .replaceWithVoid();
    }

    /**
     * Deletes the row of the day of {@code from} when {@code to} falls on a later day, with that day's
     * last microsecond as timestamp: it shadows every write of the row, so no late or replayed write
     * brings it back (cql/015).
     */
    private Uni<Void> movedOn(String username, UUID conversationId, Instant from, Instant to) {
        int day = DAYS.granularity().key(from);
        if (day >= DAYS.granularity().key(to)) {
            return Uni.createFrom().voidItem();
        }
        long lastMicro = micros(DAYS.granularity().end(day)) - 1;
        return cql.write(DELETE_DAY, lastMicro, username, day, conversationId).replaceWithVoid();
    }

    /**
     * The first read with the days index of a user whose summaries may predate it (cql/015): the row
     * of each summary's day, one unlogged batch per day with the day listed first, then days_indexed.
     */
    Uni<Void> indexDays(String username, Map<UUID, Instant> lastActivity, Instant now) {
        Map<Integer, List<Uni<BoundStatement>>> byDay = new TreeMap<>();
        Map<Integer, Instant> dayStart = new TreeMap<>();
        lastActivity.forEach((id, at) -> {
            Instant ms = at.truncatedTo(ChronoUnit.MILLIS);
            int day = DAYS.granularity().key(ms);
            dayStart.putIfAbsent(day, ms);
            byDay.computeIfAbsent(day, d -> new ArrayList<>())
                    .add(cql.bind(INSERT_DAY, username, day, id, ms, micros(ms)));
        });
        List<Uni<Void>> days = byDay.entrySet().stream()
                .map(e -> buckets.record(DAYS, username, dayStart.get(e.getKey()))
                        .chain(() -> together(e.getValue()))
                        .replaceWithVoid())
                .toList();
        Uni<Void> rows = days.isEmpty()
                ? Uni.createFrom().voidItem()
                : Uni.join().all(days).andFailFast().replaceWithVoid();
        return rows.chain(() -> cql.write(DAYS_INDEXED, micros(now), username)).replaceWithVoid();
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
     * is none: the first unread message where no messages_by_previous row names it (cql/061).
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

    /**
     * How far the user has read a conversation: where the last mark-read (or the join) ended, null
     * when neither says (then from the join, {@code joinedAt}); the messages from others so far and
     * how many of them were read (cql/054); and the last message. All null when not a member.
     */
    record ReadState(
            UUID readUpTo, long othersSent, long othersRead, boolean counted, UUID lastMessageId, Instant joinedAt) {
        static final ReadState NONE = new ReadState(null, 0, 0, false, null, null);

        /**
         * Whether a member has read every message from others before the one they send now, of which
         * there are {@code othersSentBefore} (its position's count for them, cql/054).
         */
        boolean readEverythingBefore(long othersSentBefore) {
            return joinedAt != null && counted && othersRead == othersSentBefore;
        }

        /** The read position as a timeuuid: the last message read, or the start of the join's millisecond. */
        UUID from() {
            return readUpTo != null ? readUpTo : joinedAt != null ? TimeUuids.startOf(joinedAt) : NEVER_READ;
        }
    }

    Uni<ReadState> readState(String username, UUID conversationId) {
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

    /**
     * Writes of one user's inbox_by_user partition as one unlogged batch: one mutation, applied whole
     * on each replica. Every statement must be idempotent.
     */
    Uni<AsyncResultSet> together(List<Uni<BoundStatement>> writes) {
        return cql.onePartition(writes);
    }

    /** The last activity a summary row stands for: its last message's time, or, before any, the join. */
    static Instant lastAt(Row summary) {
        UUID lastId = summary.getUuid("last_message_id");
        return lastId == null ? summary.getInstant("joined_at") : TimeUuids.instant(lastId);
    }

    /**
     * Forgets a conversation in {@code username}'s inbox: reads the summary's last activity, then
     * deletes the summary and unread markers in one unlogged batch of the user's partition, beside it
     * the membership in the user's {@link MembershipSet}, and then
     * the row of the last activity's day (cql/015; a re-join writes it again later). Idempotent writes,
     * no logged batch.
     */
    Uni<Void> forget(String username, UUID conversationId, Instant at) {
        return cql.read(LAST_ACTIVITY, username, conversationId, SUMMARY).chain(rs -> {
            Row summary = rs.one();
            // No summary: nothing listed; the tombstones of rows that never were cost nothing more.
            Instant last = summary == null || lastAt(summary) == null ? at : lastAt(summary);
            return Uni.join()
                    .all(
                            together(List.of(
                                            cql.bind(DELETE_SUMMARY, micros(at), username, conversationId, SUMMARY),
                                            clearUnread(username, conversationId, at)))
                                    .replaceWithVoid(),
                            memberships.left(username, conversationId, micros(at)))
                    .andFailFast()
                    .chain(() -> cql.write(
                            DELETE_DAY, micros(at), username, DAYS.granularity().key(last), conversationId))
                    .replaceWithVoid();
        });
    }

    /**
     * Drops every unread marker of a conversation (a send racing a leave can leave some behind).
     * The summary stays: a join writes it with the same timestamp, where a tombstone would win.
     */
    Uni<BoundStatement> clearUnread(String username, UUID conversationId, Instant at) {
        return cql.bind(DELETE_ALL_UNREAD, micros(at), username, conversationId);
    }

    /**
     * Whether a summary row is a membership: a send racing a leave can write last-message columns
     * after the user left, leaving a row without joined_at.
     */
    static boolean isMember(Row summary) {
        return summary.getInstant("joined_at") != null;
    }

    static long micros(Instant at) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, at);
    }

    /** A timeuuid's own time in microseconds (its 100 ns ticks / 10): the write timestamp of a message. */
    static long micros(UUID timeuuid) {
        return timeuuid.timestamp() / 10 - UUID_EPOCH_MICROS;
    }
}
