package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * The rows of inbox_by_user that more than one function writes (see cql/010_messenger.cql): the
 * summary row of a conversation (kind 0) and the unread markers (kind 1). Every write carries an
 * explicit write timestamp in microseconds of the service clock or of a message's time.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class InboxRows {
    /** message_id of a summary row: clustering columns cannot be null, so a fixed zero timeuuid. */
    static final UUID SUMMARY = new UUID(0x0000000000001000L, 0x8000000000000000L);
    private static final long UUID_EPOCH_MICROS = 12_219_292_800_000_000L;

    private static final Query INSERT_SUMMARY = Cql.idempotent(
            "INSERT INTO inbox_by_user (username, kind, conversation_id, message_id, title, partner, direct, joined_at) "
                    + "VALUES (?, 0, ?, ?, ?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE_SUMMARY = Cql.idempotent(
            "DELETE FROM inbox_by_user USING TIMESTAMP ? WHERE username = ? AND kind = 0 AND conversation_id = ? "
                    + "AND message_id = ?");
    private static final Query DELETE_ALL_UNREAD = Cql.idempotent(
            "DELETE FROM inbox_by_user USING TIMESTAMP ? WHERE username = ? AND kind = 1 AND conversation_id = ?");
    private static final Query SELECT_ACTIVITY = Cql.idempotent(
            "SELECT joined_at, last_message_id FROM inbox_by_user WHERE username = ? AND kind = 0 AND conversation_id = ? "
                    + "AND message_id = ?");
    private static final Query INSERT_ACTIVITY = Cql.idempotent(
            "INSERT INTO inbox_by_activity (username, last_at, conversation_id) VALUES (?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE_ACTIVITY = Cql.idempotent(
            "DELETE FROM inbox_by_activity USING TIMESTAMP ? WHERE username = ? AND last_at = ? AND conversation_id = ?");
    private static final Query INSERT_ADDED = Cql.idempotent(
            "INSERT INTO conversations_added_by_others (username, conversation_id, added_by, added_at) "
                    + "VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE_ADDED = Cql.idempotent(
            "DELETE FROM conversations_added_by_others USING TIMESTAMP ? WHERE username = ? AND conversation_id = ?");

    @Inject
    Cql cql;

    /**
     * The summary row that makes a conversation appear in {@code username}'s inbox, and its row in
     * inbox_by_activity (cql/014) at the join: written together (a logged batch) so the index never
     * misses a summary.
     */
    List<Uni<BoundStatement>> summary(String username, Conversations.Conversation c, Instant joinedAt) {
        return List.of(cql.bind(INSERT_SUMMARY, username, c.id(), SUMMARY, c.title(), c.partnerOf(username), c.direct(),
                joinedAt, micros(joinedAt)), activity(username, c.id(), joinedAt));
    }

    /**
     * The row of inbox_by_activity for a conversation last active at {@code at} (cql/014), written at
     * the start of that millisecond: every write of the row stays below {@link #inactive}'s tombstone.
     */
    Uni<BoundStatement> activity(String username, UUID conversationId, Instant at) {
        Instant ms = at.truncatedTo(ChronoUnit.MILLIS);
        return cql.bind(INSERT_ACTIVITY, username, ms, conversationId.toString(), micros(ms));
    }

    /**
     * Deletes the row of inbox_by_activity at {@code at}, with the last microsecond of that
     * millisecond as timestamp: it shadows every write of that row (a replayed send, a backfill),
     * so a row once superseded never comes back.
     */
    Uni<BoundStatement> inactive(String username, UUID conversationId, Instant at) {
        Instant ms = at.truncatedTo(ChronoUnit.MILLIS);
        return cql.bind(DELETE_ACTIVITY, micros(ms) + 999, username, ms, conversationId.toString());
    }

    /**
     * Writes of one user's inbox (inbox_by_user and inbox_by_activity share the partition key) as
     * one unlogged batch: one mutation of the partition, applied whole on each replica. Every
     * statement must be idempotent.
     */
    Uni<AsyncResultSet> together(List<Uni<BoundStatement>> writes) {
        return Uni.join().all(writes).andFailFast().chain(statements -> cql.execute(
                BatchStatement.newInstance(DefaultBatchType.UNLOGGED, statements.toArray(BoundStatement[]::new))
                        .setIdempotent(true)));
    }

    /** The last activity a summary row stands for: its last message's time, or, before any, the join. */
    static Instant lastAt(Row summary) {
        UUID lastId = summary.getUuid("last_message_id");
        return lastId == null ? summary.getInstant("joined_at") : TimeUuids.instant(lastId);
    }

    /**
     * Writes the row that charges a membership to {@code username}'s "added by others" bound
     * (cql/011), beside the summary, whenever the member is not the one who made the membership.
     */
    Uni<AsyncResultSet> addedBy(String username, UUID conversationId, String adder, Instant at) {
        return cql.write(INSERT_ADDED, username, conversationId, adder, at, micros(at));
    }

    /**
     * Forgets a conversation in {@code username}'s inbox: its summary, unread markers and row of
     * inbox_by_activity (found by reading the summary's last activity; a send racing the leave may
     * leave one more row, which the inbox skips and removes, cql/014) in one unlogged batch of the
     * user's partition, and beside it the "added by others" charge. Idempotent writes, no logged
     * batch (issue 14).
     */
    Uni<Void> forget(String username, UUID conversationId, Instant at) {
        Uni<BoundStatement> activity = cql.read(SELECT_ACTIVITY, username, conversationId, SUMMARY).chain(rs -> {
            Row summary = rs.one();
            // No summary: nothing listed; the tombstone of a row that never was costs nothing more.
            return inactive(username, conversationId, summary == null || lastAt(summary) == null ? at : lastAt(summary));
        });
        return Uni.join().all(
                together(List.of(cql.bind(DELETE_SUMMARY, micros(at), username, conversationId, SUMMARY),
                        clearUnread(username, conversationId, at), activity)).replaceWithVoid(),
                cql.write(DELETE_ADDED, micros(at), username, conversationId).replaceWithVoid())
                .andFailFast().replaceWithVoid();
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
