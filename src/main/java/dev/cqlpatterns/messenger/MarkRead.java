package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * POST /conversations/{id}/read: the caller has read every message unread so far ("mark read" of
 * seed 001, cql/SEEDS.md, without its read-modify-write of a JSON blob).
 *
 * <p>The caller's unread markers are the exact list of messages to add them to seenBy: read the
 * newest of them after the previous mark-read's end (at most markReadMaxMessages, 500), write the
 * caller's own entry of those messages' seen_at map (cql/012_seen_at.cql), then delete every marker
 * up to the newest one read with one range tombstone (unread becomes 0; older markers beyond the
 * bound are counted read without a seenBy entry), and record that message as read_up_to in the
 * caller's inbox summary (cql/013_unread_window.cql). Both writes carry that message's time as write
 * timestamp, as its marker does: the newest message read wins, whichever replica's clock is ahead.
 *
 * <p>The end is the newest message, not this replica's clock: a replica whose clock is ahead would
 * otherwise count as read the messages others send in the time it is ahead. A message sent after the
 * markers were read stays unread, because SendMessage gives a message a time after the conversation's
 * newest. Every write is idempotent and touches only the caller's cells, so concurrent mark-reads, by
 * one member or several, need no lease and all succeed; a repeated one finds no marker and writes
 * nothing.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations/{id}/read")
@Tag(name = "messenger")
@Authenticated
public class MarkRead {
    /** Writes per unlogged batch: one partition, one mutation, a few KB. */
    private static final int WRITES_PER_BATCH = 50;

    @Inject
    Caller caller;

    @Inject
    Cql cql;

    @Inject
    Clock clock;

    @Inject
    Conversations conversations;

    @Inject
    InboxRows inboxRows;

    @Inject
    MessengerSettings settings;

    @Schema(name = "ReadReceipt")
    public record Receipt(
            @Schema(format = "uuid", examples = "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b")
            String conversationId,

            @Schema(
                    description = "When the call ran; the messages unread then are read now, later ones stay unread",
                    examples = "2025-06-01T10:20:00.000Z")
            Instant readAt,

            @Schema(
                    description = "Unread messages this call found and added the caller to seenBy of (a mark-read "
                            + "running at the same time for the same caller may count the same ones)",
                    examples = "3")
            int markedSeen) {}

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Mark every message of a conversation read that is unread so far (members only)",
            description =
                    "The caller's unread count for it becomes 0, and they are added once to seenBy of the "
                            + "messages they had not read: the newest 500 at most per call (older unread ones count as read "
                            + "without a seenBy entry). Idempotent: repeating it, or running it concurrently, changes nothing more.")
    @APIResponse(
            responseCode = "200",
            description = "Read",
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Receipt.class)))
    public Uni<Receipt> markRead(
            @Parameter(description = "Conversation id", example = "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b")
                    @PathParam("id")
                    UUID id) {
        String me = caller.username();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        // The previous mark-read's end comes with the membership check: the markers are read from it on,
        // never through those it deleted (shadowed until compaction meets them, whatever their number).
        return Uni.combine()
                .all()
                .unis(conversations.requireMember(id, me), inboxRows.readUpTo(me, id))
                .asTuple()
                .chain(found -> read(id, me, now, found.getItem2()));
    }

    private Uni<Receipt> read(UUID id, String me, Instant now, UUID readBefore) {
        return cql.read(InboxRows.UNREAD_SINCE, me, id, readBefore, settings.markReadMaxMessages())
                .chain(rs -> {
                    List<UUID> unread =
                            Cql.rows(rs).stream().map(row -> row.getUuid(0)).toList();
                    if (unread.isEmpty()) {
                        return Uni.createFrom().item(new Receipt(id.toString(), now, 0));
                    }
                    // Newest first: read up to the newest message unread now, not up to this replica's clock.
                    UUID upTo = unread.get(0);
                    long timestamp = InboxRows.micros(upTo);
                    Map<Integer, List<UUID>> byMonth = new TreeMap<>();
                    unread.forEach(
                            messageId -> byMonth.computeIfAbsent(Messages.bucket(messageId), b -> new ArrayList<>())
                                    .add(messageId));
                    List<Uni<Integer>> months = byMonth.entrySet().stream()
                            .map(e -> markSeen(id, e.getKey(), e.getValue(), me, now))
                            .toList();
                    return Uni.join()
                            .all(months)
                            .andFailFast()
                            .map(counts -> counts.stream().mapToInt(i -> i).sum())
                            // Markers go last: should this call die before, the next one finds them and writes the
                            // same cells.
                            .call(marked -> cql.write(InboxRows.CLEAR_UNREAD, timestamp, me, id, upTo))
                            // Then where the inbox starts counting; the newest message read wins.
                            .call(marked ->
                                    cql.write(InboxRows.SET_READ_UP_TO, timestamp, upTo, me, id, InboxRows.SUMMARY))
                            .map(marked -> new Receipt(id.toString(), now, marked));
                });
    }

    /** Sets the caller's seen_at entry of those messages of one month: one cell each, idempotent. */
    private Uni<Integer> markSeen(UUID conversationId, int month, List<UUID> messageIds, String me, Instant now) {
        List<Uni<BoundStatement>> writes = messageIds.stream()
                .map(messageId -> cql.bind(Messages.SEEN_AT, me, now, conversationId, month, messageId))
                .toList();
        return Uni.join().all(writes).andFailFast().chain(statements -> {
            List<Uni<AsyncResultSet>> batches = new ArrayList<>();
            for (int from = 0; from < statements.size(); from += WRITES_PER_BATCH) {
                List<BoundStatement> chunk =
                        statements.subList(from, Math.min(statements.size(), from + WRITES_PER_BATCH));
                batches.add(cql.execute(
                        BatchStatement.newInstance(DefaultBatchType.UNLOGGED, chunk.toArray(new BoundStatement[0]))
                                .setIdempotent(true)));
            }
            return Uni.join().all(batches).andFailFast().map(done -> statements.size());
        });
    }
}
