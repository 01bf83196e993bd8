package dev.cqlpatterns.messenger;

import dev.cqlpatterns.messenger.inbox.InboxRows;
import dev.cqlpatterns.messenger.inbox.ReadState;
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
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * POST /conversations/{id}/read: the caller has read every message unread so far ("mark read" of seed 001,
 * cql/SEEDS.md, without its read-modify-write of a JSON blob).
 *
 * <p>The caller's summary says how far they have read (read_up_to), the last message and the messages from
 * others so far (others_sent): the call reads the newest messages from others after read_up_to up to the last
 * one (at most markReadMaxMessages, 500; messages_by_conversation), writes the caller's own entry of their
 * seen_at map (messages_by_conversation), and records the last message as read_up_to with others_read =
 * others_sent on the summary, after deleting the caller's unread markers up to it with one range tombstone
 * (inbox_by_user): unread becomes 0, older messages beyond the bound count as read without a seenBy entry.
 * Both inbox writes carry the last message's time as write timestamp, as its marker does: the newest message
 * read wins, whichever replica's clock is ahead.
 *
 * <p>The end is the last message the summary names, not this replica's clock: a message sent after the
 * summary was read stays unread, and its others_sent is larger. Every write is idempotent and touches only
 * the caller's cells, so concurrent mark-reads, by one member or several, need no lease and all succeed; a
 * repeated one finds nothing new and writes nothing.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations/{id}/read")
@Tag(name = "messenger")
@Authenticated
public class MarkRead {
    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @Inject
    Conversations conversations;

    @Inject
    InboxRows inboxRows;

    @Inject
    Messages messages;

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
    public Uni<Receipt> markRead(@Parameter(ref = ConversationParameters.ID) @PathParam("id") UUID id) {
        String me = caller.username();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        // How far the caller has read comes with the membership check.
        return Uni.combine()
                .all()
                .unis(conversations.requireMember(id, me), inboxRows.readState(me, id))
                .asTuple()
                .chain(found -> read(id, me, now, found.getItem2()));
    }

    private Uni<Receipt> read(UUID id, String me, Instant now, ReadState before) {
        UUID upTo = before.lastMessageId();
        UUID from = before.from();
        if (upTo == null || upTo.timestamp() <= from.timestamp() && before.othersRead() == before.othersSent()) {
            return Uni.createFrom().item(new Receipt(id.toString(), now, 0));
        }
        return messages.newestFromOthers(id, from, upTo, me, settings.markReadMaxMessages())
                .chain(byMonth -> {
                    List<Uni<Integer>> months = byMonth.entrySet().stream()
                            .map(e -> messages.markSeen(id, e.getKey(), e.getValue(), me, now))
                            .toList();
                    return months.isEmpty()
                            ? Uni.createFrom().item(0)
                            : Uni.join()
                                    .all(months)
                                    .andFailFast()
                                    .map(counts ->
                                            counts.stream().mapToInt(i -> i).sum());
                })
                // seen_at goes before the markers and the read position: should this call die before, the next
                // one reads the same messages and writes the same cells.
                .call(marked -> inboxRows.markRead(me, id, upTo, before.othersSent()))
                .map(marked -> new Receipt(id.toString(), now, marked));
    }
}
