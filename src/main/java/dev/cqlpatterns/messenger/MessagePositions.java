package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.CqlTypes;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.cassandra.Ttl;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.idempotency.IdempotencySettings;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.UnaryOperator;

/**
 * message_positions: each message's place in its conversation, one after the other. A send claims the next
 * position and its message's time together, conditionally on the position it read being still the last: so
 * the messages of a conversation have one order, each a millisecond or more after the one before it, whatever
 * the senders' replicas and clocks, and a member's unread count is a difference of two numbers ({@link
 * Claimed#othersSent}).
 *
 * <p>The claim is one conditional batch of the conversation's partition: the head (last position, last
 * message, messages sent per member) moves on, and the claim row, keyed by the request (its Idempotency-Key,
 * or a random id), is inserted if it does not exist. A retry of the same request finds its claim row and gets
 * the same position and message back: a position is never claimed twice by one request, and never left
 * without its message by a request that is retried.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class MessagePositions {
    static final String TABLE = "message_positions";
    /** Claims under contention: each lost one means another send of the conversation landed first. */
    private static final int ATTEMPTS_PER_CAS_ATTEMPT = 5;

    private static final Query HEAD = Cql.idempotent("SELECT DISTINCT conversation_id, last_position, "
            + "last_message_id, sent FROM message_positions WHERE conversation_id = ?");
    private static final Query CLAIMED = Cql.idempotent(
            "SELECT last_position, last_message_id, sent, position, "
                    + "message_id, previous_message_id, sent_after FROM message_positions WHERE conversation_id = ? AND claim = ?");
    private static final Query CLAIM = Cql.conditional("BEGIN BATCH "
            + "UPDATE message_positions SET last_position = ?, last_message_id = ?, sent[?] = ? "
            + "WHERE conversation_id = ? IF last_position = ?; "
            + "INSERT INTO message_positions (conversation_id, claim, position, message_id, previous_message_id, "
            + "sent_after) VALUES (?, ?, ?, ?, ?, ?) IF NOT EXISTS USING TTL ?; "
            + "APPLY BATCH");

    @Inject
    Cql cql;

    @Inject
    CompareAndSet cas;

    @Inject
    IdempotencySettings idempotency;

    /** The last claim of a conversation: position 0 and no message before any. */
    public record Head(long position, UUID lastMessageId, Map<String, Long> sent) {
        public static final Head NONE = new Head(0, null, Map.of());

        /** Messages from others than {@code member} so far: where a member who joins now starts reading. */
        public long othersSent(String member) {
            return position - sent.getOrDefault(member, 0L);
        }

        static Head of(Row row) {
            if (row == null || row.isNull("last_position")) {
                return NONE;
            }
            Map<String, Long> sent = row.getMap("sent", String.class, Long.class);
            return new Head(row.getLong("last_position"), row.getUuid("last_message_id"), Map.copyOf(sent));
        }
    }

    /**
     * A message's claimed place: its position, its id (time), the message before it (null for the first), and
     * how many messages each member had sent once it was sent.
     */
    public record Claimed(long position, UUID messageId, UUID previousMessageId, Map<String, Long> sentAfter) {
        /** Messages from others than {@code member} up to and including this one: its unread count's upper end. */
        public long othersSent(String member) {
            return position - sentAfter.getOrDefault(member, 0L);
        }

        static Claimed of(Row row) {
            return new Claimed(
                    row.getLong("position"),
                    row.getUuid("message_id"),
                    row.getUuid("previous_message_id"),
                    Map.copyOf(row.get("sent_after", CqlTypes.MAP_OF_TEXT_TO_BIGINT)));
        }
    }

    /** The conversation's last claim, read at the local quorum (a claim on a stale one is refused and tries again). */
    Uni<Head> head(UUID conversationId) {
        return cql.read(HEAD, conversationId).map(rs -> Head.of(rs.one()));
    }

    /**
     * Claims the next position for {@code sender}'s message, starting from {@code head}: the message's id is
     * {@code idAfter} of the last message (this replica's clock, or a millisecond after the last message when
     * that is later). Claimed already by this request ({@code claim}): the earlier claim.
     */
    Uni<Claimed> claim(UUID conversationId, UUID claim, Head head, String sender, UnaryOperator<UUID> idAfter) {
        AtomicReference<Row> seen = new AtomicReference<>();
        return cas.run(
                attempt -> attempt.number() == 1
                        ? Uni.createFrom().item(new Found(head, null))
                        : found(conversationId, claim, attempt.lost()),
                found -> {
                    if (found.claimed() != null) {
                        return CompareAndSet.Step.done(Uni.createFrom().item(found.claimed()));
                    }
                    Head last = found.head();
                    long sentBySender = last.sent().getOrDefault(sender, 0L) + 1;
                    Map<String, Long> sentAfter = new HashMap<>(last.sent());
                    sentAfter.put(sender, sentBySender);
                    Claimed next = new Claimed(
                            last.position() + 1, idAfter.apply(last.lastMessageId()), last.lastMessageId(), sentAfter);
                    return CompareAndSet.Step.write(
                            TABLE,
                            cql.write(
                                    CLAIM,
                                    next.position(),
                                    next.messageId(),
                                    sender,
                                    sentBySender,
                                    conversationId,
                                    last.position() == 0 ? null : last.position(),
                                    conversationId,
                                    claim,
                                    next.position(),
                                    next.messageId(),
                                    next.previousMessageId(),
                                    sentAfter,
                                    claimTtl()),
                            () -> cql.read(CLAIMED, cql.serially(), conversationId, claim)
                                    .map(rs -> {
                                        seen.set(rs.one());
                                        return seen.get() != null && !seen.get().isNull("position");
                                    }),
                            () -> Uni.createFrom()
                                    .item(
                                            seen.get() != null && !seen.get().isNull("position")
                                                    ? Claimed.of(seen.get())
                                                    : next));
                },
                () -> ProblemException.unavailable(
                        "Other messages to this conversation kept landing first; send the message again"),
                ATTEMPTS_PER_CAS_ATTEMPT);
    }

    /** What a refused claim's answer says (the head now, and this request's claim if it has one), or a serial read. */
    private record Found(Head head, Claimed claimed) {}

    private Uni<Found> found(UUID conversationId, UUID claim, AsyncResultSet lost) {
        Row answer = lost == null ? null : lost.one();
        if (answer != null && answer.getColumnDefinitions().contains("last_position")) {
            return Uni.createFrom().item(found(answer));
        }
        return cql.read(CLAIMED, cql.serially(), conversationId, claim).chain(rs -> {
            Row row = rs.one();
            if (row != null) {
                return Uni.createFrom().item(found(row));
            }
            return cql.read(HEAD, cql.serially(), conversationId).map(head -> new Found(Head.of(head.one()), null));
        });
    }

    private static Found found(Row row) {
        boolean claimed = row.getColumnDefinitions().contains("position") && !row.isNull("position");
        return new Found(Head.of(row), claimed ? Claimed.of(row) : null);
    }

    /** A claim is kept as long as a retry under its Idempotency-Key may come, and an hour more. */
    private int claimTtl() {
        return Ttl.of(idempotency.ttl().plus(Duration.ofHours(1)), Duration.ofHours(1), "cql-patterns.idempotency.ttl");
    }
}
