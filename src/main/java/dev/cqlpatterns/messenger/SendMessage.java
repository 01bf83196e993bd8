package dev.cqlpatterns.messenger;

import dev.cqlpatterns.messenger.inbox.InboxRows;
import dev.cqlpatterns.messenger.inbox.ReadState;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.idempotency.IdempotencyKeys;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.openapi.ApiDefinition;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * POST /conversations/{id}/messages: sends a message (the row of seed 000 and "send message" of seed 001,
 * cql/SEEDS.md).
 *
 * <p>The message first claims its position in the conversation, conditionally on the last one being still the
 * last ({@link MessagePositions}): its time is the replica's clock, or just after the conversation's newest
 * message or newest join or leave when that is later ({@link #timeOf}). So concurrent sends, from any
 * replicas, have one order, a millisecond or more apart, that history, the inbox's last message and mark-read
 * all follow; and each member's summary gets the number of messages from others so far (others_sent), from
 * which the inbox counts what is unread without reading a row per message (message_positions).
 *
 * <p>Writes ({@link MessageDelivery}), in this order, each idempotent so the whole send can be replayed: the
 * message row in its month bucket (listed in time_buckets first); then, together, the message under the one
 * before it (messages_by_previous, where the inbox finds a member's first unread message from their
 * read_up_to) and every member's inbox summary: the last message and others_sent, and the sender's read_up_to
 * moved to the message when they had read every message from others before it. No row per unread message: a
 * recipient's partition does not grow with what they leave unread. The inbox writes carry the message's time
 * as write timestamp: the newest message wins the summary however concurrent sends land. They are
 * single-partition writes rather than one logged batch over every member's partition.
 *
 * <p>With an Idempotency-Key (platform.idempotency, shared by every create), the position is claimed under an
 * id derived from the key, then the key (LWT, with a TTL) with the plan of the send: the message id and its
 * recipients. A retry finds both claims and, unless the send completed, runs the same idempotent writes
 * again, so that a first attempt which died midway is finished under the same id and position; it answers the
 * same message.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations/{id}/messages")
@Tag(name = "messenger")
public class SendMessage {

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @Inject
    InboxRows inbox;

    @Inject
    MessageRules rules;

    @Inject
    MessageDelivery delivery;

    @Inject
    Conversations conversations;

    @Inject
    IdempotencyKeys idempotency;

    @Inject
    MessagePositions positions;

    /** What a send writes, fixed before its first write (kept with its Idempotency-Key). */
    @RegisterForReflection
    public record Plan(UUID messageId, List<String> recipients) {}

    /** The request as the send understood it: its fingerprint under an Idempotency-Key. */
    @RegisterForReflection
    public record Fingerprint(String content, Map<String, String> attachments) {}

    @Schema(name = "NewMessage")
    public record Request(
            @Schema(
                    description = "1 to 4,000 characters (cql-patterns.messenger.max-content-length), not all white "
                            + "space; no control character but tab, line feed and carriage return",
                    minLength = 1,
                    maxLength = 4000,
                    pattern = Text.FREE_TEXT_NOT_BLANK,
                    examples = "Where are you?",
                    required = true)
            String content,

            @Schema(
                    description = "At most 10 (cql-patterns.messenger.max-attachments); name (1 to 200 characters, not "
                            + "blank, no control character) -> absolute http(s) URL of at most 2,000 characters",
                    nullable = true,
                    maxProperties = 10,
                    additionalProperties = AttachmentUrl.class,
                    examples = "{\"map.png\": \"https://example.com/map.png\"}")
            Map<String, String> attachments) {}

    @Schema(name = "SentMessage")
    public record Sent(
            @Schema(
                    format = "uuid",
                    description = "timeuuid of the message",
                    examples = "5c1f0a10-3e8b-11f0-9a0b-8d3c6f1e2a4b")
            String id,

            @Schema(format = "uuid", examples = "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b")
            String conversationId,

            @Schema(
                    description = "The message's time: the service's clock, or just after the conversation's newest "
                            + "message or membership change when that is later, so messages keep the order in which "
                            + "they were sent",
                    examples = "2025-06-01T10:15:30.123Z")
            Instant sentAt,

            @Schema(pattern = Usernames.ANSWERED, examples = "alice")
            String sender,

            @Schema(
                    type = SchemaType.ARRAY,
                    implementation = Usernames.Answered.class,
                    description = "Members it was sent to: everyone but the sender, sorted",
                    examples = "[\"bob\"]")
            List<String> recipients) {}

    @POST
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Send a message to a conversation (members only)",
            description = "Every other member's inbox entry gets the message as last message and one more unread; the "
                    + "sender's own entry gets it as last message. With an Idempotency-Key, a retry with the same key "
                    + "(kept 24 hours) answers the same message and stores nothing twice.")
    @APIResponse(
            responseCode = "201",
            description = "Sent (or, with a reused Idempotency-Key, sent before)",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Sent.class)))
    @APIResponse(responseCode = "409", description = "The Idempotency-Key was used before for a different message")
    public Uni<RestResponse<Sent>> send(
            @Parameter(ref = ConversationParameters.ID) @PathParam("id") UUID id,
            @Parameter(ref = ApiDefinition.IDEMPOTENCY_KEY) @HeaderParam(IdempotencyKeys.HEADER) String key,
            @Valid @NotNull Request request) {
        String sender = caller.username();
        Instant at = clock.instant();
        String content = rules.content(request.content());
        Map<String, String> attachments = rules.attachments(request.attachments());
        return Uni.combine()
                .all()
                .unis(conversations.requireMember(id, sender), positions.head(id), inbox.readState(sender, id))
                .asTuple()
                .chain(found -> {
                    Conversations.Conversation c = found.getItem1();
                    ReadState read = found.getItem3();
                    return positions
                            .claim(
                                    id,
                                    IdempotencyKeys.requestId(operation(id), sender, key),
                                    found.getItem2(),
                                    sender,
                                    last -> TimeUuids.at(timeOf(at, c, last)))
                            .chain(claimed -> idempotency.run(
                                    operation(id),
                                    sender,
                                    key,
                                    new Fingerprint(content, attachments),
                                    Plan.class,
                                    () -> new Plan(claimed.messageId(), recipients(c, sender)),
                                    // A key first claimed by a release that does not claim positions has its own
                                    // message: no position to write for it.
                                    (plan, retry) -> delivery.write(
                                            c,
                                            plan.messageId(),
                                            plan.recipients(),
                                            plan.messageId().equals(claimed.messageId()) ? claimed : null,
                                            read,
                                            sender,
                                            content,
                                            attachments)));
                })
                .map(done -> done.respond(RestResponse.ResponseBuilder.create(
                        RestResponse.Status.CREATED, sent(id, sender, done.plan()))));
    }

    /** The scope of a send's Idempotency-Key, with the sender: one conversation. */
    static String operation(UUID conversationId) {
        return "POST /conversations/" + conversationId + "/messages";
    }

    private static List<String> recipients(Conversations.Conversation c, String sender) {
        Set<String> recipients = new TreeSet<>(c.members());
        recipients.remove(sender);
        return List.copyOf(recipients);
    }

    /**
     * A new message's time: this replica's clock, or the millisecond after the last message claimed ({@code
     * last}), the conversation's newest message or its newest join or leave, where one is later (this
     * replica's clock is behind another's). So a message is after every message claimed before it, in history
     * and in mark-read's order, and a member who joined counts it, their summary starting at the join,
     * whatever the replicas' clocks.
     */
    static Instant timeOf(Instant now, Conversations.Conversation c, UUID last) {
        Instant at = Conversations.Conversation.after(now, c.membersChanged());
        at = Conversations.Conversation.after(
                at, c.lastMessageId() == null ? null : TimeUuids.instant(c.lastMessageId()));
        return Conversations.Conversation.after(at, last == null ? null : TimeUuids.instant(last));
    }

    private static Sent sent(UUID conversationId, String sender, Plan plan) {
        return new Sent(
                plan.messageId().toString(),
                conversationId.toString(),
                TimeUuids.instant(plan.messageId()),
                sender,
                plan.recipients());
    }
}
