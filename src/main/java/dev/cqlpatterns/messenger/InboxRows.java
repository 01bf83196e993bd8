package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
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
    private static final Query INSERT_ADDED = Cql.idempotent(
            "INSERT INTO conversations_added_by_others (username, conversation_id, added_by, added_at) "
                    + "VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE_ADDED = Cql.idempotent(
            "DELETE FROM conversations_added_by_others USING TIMESTAMP ? WHERE username = ? AND conversation_id = ?");

    @Inject
    Cql cql;

    /** The summary row that makes a conversation appear in {@code username}'s inbox. */
    Uni<BoundStatement> summary(String username, Conversations.Conversation c, Instant joinedAt) {
        return cql.bind(INSERT_SUMMARY, username, c.id(), SUMMARY, c.title(), c.partnerOf(username), c.direct(),
                joinedAt, micros(joinedAt));
    }

    /**
     * The row that charges a membership to {@code username}'s "added by others" bound (cql/011):
     * written with the summary whenever the member is not the one who made the membership.
     */
    Uni<BoundStatement> addedBy(String username, UUID conversationId, String adder, Instant at) {
        return cql.bind(INSERT_ADDED, username, conversationId, adder, at, micros(at));
    }

    /**
     * Forgets a conversation in {@code username}'s inbox: its summary and unread markers (one
     * partition, one unlogged batch) and, beside it, its charge. Idempotent writes, no logged batch.
     */
    Uni<Void> forget(String username, UUID conversationId, Instant at) {
        return Uni.join().all(
                inOnePartition(cql.bind(DELETE_SUMMARY, micros(at), username, conversationId, SUMMARY),
                        clearUnread(username, conversationId, at)),
                cql.bind(DELETE_ADDED, micros(at), username, conversationId).chain(delete -> cql.execute(delete)).replaceWithVoid())
                .andFailFast().replaceWithVoid();
    }

    /**
     * Writes of one partition of inbox_by_user as one unlogged batch: applied together (one
     * mutation, atomic and isolated on each replica) without the batch log a logged batch writes to
     * two other nodes (issue 14); idempotent when every write is (a batch is not by default), so
     * the driver retries it.
     */
    @SafeVarargs
    final Uni<Void> inOnePartition(Uni<BoundStatement>... writes) {
        return Uni.join().all(List.of(writes)).andFailFast()
                .chain(statements -> cql.execute(BatchStatement.newInstance(DefaultBatchType.UNLOGGED,
                        statements.toArray(new BoundStatement[0])).setIdempotent(
                                statements.stream().allMatch(s -> Boolean.TRUE.equals(s.isIdempotent())))))
                .replaceWithVoid();
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
