package dev.cqlpatterns.messenger;

import dev.cqlpatterns.messenger.inbox.Delivery;
import dev.cqlpatterns.messenger.inbox.InboxRows;
import dev.cqlpatterns.messenger.inbox.MessagesByPrevious;
import dev.cqlpatterns.messenger.inbox.ReadState;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.http.WebUrls;
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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * POST /conversations/{id}/messages: sends a message (the row of seed 000 and "send message" of seed 001, cql/SEEDS.md).
 *
 * <p>The message first claims its position in the conversation, conditionally on the last one
 * being still the last ({@link MessagePositions}): its time is the replica's clock, or just after
 * the conversation's newest message or newest join or leave when that is later ({@link #timeOf}).
 * So concurrent sends, from any replicas, have one order, a millisecond or more apart, that
 * history, the inbox's last message and mark-read all follow; and each member's summary gets the
 * number of messages from others so far (others_sent), from which the inbox counts what is unread
 * without reading a row per message (cql/054).
 *
 * <p>Writes, in this order, each idempotent so the whole send can be replayed: the message row in
 * its month bucket (listed in time_buckets first); then, together, the message under the one before
 * it (messages_by_previous, where the inbox finds a member's first unread message from their
 * read_up_to, cql/061) and every member's inbox summary: the last message and others_sent, and the
 * sender's read_up_to moved to the message when they had read every message from others before it.
 * No row per unread message: a recipient's partition does not grow with what they leave unread. The
 * inbox writes carry the message's time as write timestamp: the newest message wins the summary
 * however concurrent sends land. They are single-partition writes rather than one logged batch over
 * every member's partition.
 *
 * <p>With an Idempotency-Key (platform.idempotency, shared by every create), the position is claimed
 * under an id derived from the key, then the key (LWT, with a TTL) with the plan of the send: the
 * message id and its recipients. A retry finds both claims and, unless the send completed, runs the
 * same idempotent writes again, so that a first attempt which died midway is finished under the
 * same id and position; it answers the same message.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations/{id}/messages")
@Tag(name = "messenger")
public class SendMessage {

    @Inject
    Caller caller;

    @Inject
    Cql cql;

    @Inject
    Clock clock;

    @Inject
    Messages messages;

    @Inject
    Conversations conversations;

    @Inject
    MessengerSettings settings;

    @Inject
    IdempotencyKeys idempotency;

    @Inject
    InboxRows inbox;

    @Inject
    MessagePositions positions;

    @Inject
    MessagesByPrevious next;

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

    /** The contract's schema of one attachment's URL (the service checks it with WebUrls). */
    @Schema(
            name = "AttachmentUrl",
            type = SchemaType.STRING,
            maxLength = 2000,
            pattern = WebUrls.PATTERN,
            description = "Absolute http(s) URL with a host",
            examples = "https://example.com/map.png")
    static final class AttachmentUrl {
        private AttachmentUrl() {}
    }

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
            headers = @Header(name = ApiDefinition.REPLAYED, ref = ApiDefinition.REPLAYED),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Sent.class)))
    @APIResponse(
            responseCode = "409",
            description = "The Idempotency-Key was used before for a different message",
            content = @Content(mediaType = "application/problem+json", schema = @Schema(ref = "Problem")))
    public Uni<RestResponse<Sent>> send(
            @Parameter(description = "Conversation id", example = "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b")
                    @PathParam("id")
                    UUID id,
            @Parameter(ref = ApiDefinition.IDEMPOTENCY_KEY) @HeaderParam(IdempotencyKeys.HEADER) String key,
            @Valid @NotNull Request request) {
        String sender = caller.username();
        Instant at = clock.instant();
        String content = validContent(request.content());
        Map<String, String> attachments = validAttachments(request.attachments());
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
                                    (plan, retry) -> write(
                                            c,
                                            plan,
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
     * A new message's time: this replica's clock, or the millisecond after the last message claimed
     * ({@code last}), the conversation's newest message or its newest join or leave, where one is
     * later (this replica's clock is behind another's). So a message is after every message claimed
     * before it, in history and in mark-read's order, and a member who joined counts it, their
     * summary starting at the join, whatever the replicas' clocks.
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

    /**
     * The writes of a send; run again for the same plan, they write the same cells. {@code claimed}:
     * the message's position, null when it has none (see {@link #send}).
     */
    private Uni<Void> write(
            Conversations.Conversation c,
            Plan plan,
            MessagePositions.Claimed claimed,
            ReadState read,
            String sender,
            String content,
            Map<String, String> attachments) {
        UUID conversationId = c.id();
        UUID messageId = plan.messageId();
        Set<String> recipients = new TreeSet<>(plan.recipients());
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

    private String validContent(String content) {
        if (content == null || content.isBlank()) {
            throw ProblemException.invalid("content", "must not be empty");
        }
        if (Text.length(content) > settings.maxContentLength()) {
            throw ProblemException.invalid("content", "at most " + settings.maxContentLength() + " characters");
        }
        if (!Text.isFreeText(content)) {
            throw ProblemException.invalid("content", Text.FREE_TEXT_MESSAGE);
        }
        return content;
    }

    private Map<String, String> validAttachments(Map<String, String> attachments) {
        if (attachments == null) {
            return Map.of();
        }
        if (attachments.size() > settings.maxAttachments()) {
            throw ProblemException.invalid("attachments", "at most " + settings.maxAttachments() + " attachments");
        }
        Map<String, String> valid = new TreeMap<>();
        attachments.forEach((name, url) -> {
            if (name.isBlank() || Text.length(name) > settings.maxAttachmentNameLength()) {
                throw ProblemException.invalid(
                        "attachments", "names must be 1 to " + settings.maxAttachmentNameLength() + " characters");
            }
            if (!Text.isSingleLine(name)) {
                throw ProblemException.invalid("attachments", "names " + Text.SINGLE_LINE_MESSAGE);
            }
            if (!WebUrls.isWebUrl(url) || Text.length(url) > settings.maxAttachmentUrlLength()) {
                throw ProblemException.invalid(
                        "attachments." + name,
                        "must be an http(s) URL of at most " + settings.maxAttachmentUrlLength() + " characters");
            }
            valid.put(name, url);
        });
        return valid;
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
