package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import dev.cqlpatterns.messenger.inbox.InboxListing;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.NewResource;
import dev.cqlpatterns.platform.idempotency.IdempotencyKeys;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.openapi.ApiDefinition;
import dev.cqlpatterns.platform.time.IncreasingTime;
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
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
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
 * POST /conversations: starts a conversation. Two members (the caller and one other) make a 1:1
 * conversation whose id comes from the ordered pair (seed 001, cql/SEEDS.md), created with IF NOT EXISTS so
 * concurrent creates agree; creating it again answers 200 with the same conversation. More
 * members make a group with a random id. Every member gets a summary row in their inbox.
 *
 * <p>Safe to retry with an Idempotency-Key (platform.idempotency): the id and creation time are
 * planned and kept with the key before anything is written. A group is written by ordered idempotent
 * writes, no logged batch (a logged batch's log goes to two other nodes, so while a killed
 * node is not yet marked down every batch whose log picks it fails): first every member's inbox
 * summary and the membership in their MembershipSet (who added them), then the conversation row
 * last. The row is what makes the group exist (every conversation route reads it); a reader between
 * the writes may see the group in an inbox a moment before it opens (404), never a group whose member
 * has no inbox row. Every write carries the plan's creation time as write timestamp, so a retry of
 * the request after a 503 writes the same cells again under the same id (no second group) and
 * cannot undo what members did since: someone added or removed after the first attempt, or a member
 * who left, stays so. The retry skips the quota check: the first attempt passed it, and its own
 * conversation must not count against it. A 1:1 conversation is idempotent by its derived id; the
 * key only keeps its answer (201, not 200, for the request that created it).
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations")
@Tag(name = "messenger")
@Authenticated
public class CreateConversation {

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @Inject
    Conversations conversations;

    @Inject
    InboxListing inbox;

    @Inject
    MemberQuotas quotas;

    @Inject
    ConversationRules rules;

    @Inject
    IdempotencyKeys idempotency;

    /** Creation times of plans made here, in epoch milliseconds. */
    private final IncreasingTime planned = new IncreasingTime(1_000);

    public static final String OPERATION = "POST /conversations";

    /** What a create writes, fixed before its first write (kept with its Idempotency-Key). */
    @RegisterForReflection
    public record Plan(UUID id, Instant createdAt) {}

    /** The request as the create understood it: its fingerprint under an Idempotency-Key. */
    @RegisterForReflection
    public record Fingerprint(Set<String> members, String title) {}

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Start a conversation (the caller is always a member)",
            description = "Exactly two members (the caller and one other) make a 1:1 conversation whose id is derived "
                    + "from the ordered pair: creating it again answers 200 with the existing conversation (its title "
                    + "is the first creator's). Otherwise a group with a new id. Every member must be a signed-up user (400 "
                    + "naming the field). Quotas: the conversation counts against the caller's own cap (1,000 "
                    + "conversations started; 409) and, for every other member, against that member's separate "
                    + "bound of conversations others put them in (2,000; 409 naming them), so nobody can use up "
                    + "another user's own cap.")
    @APIResponse(
            responseCode = "200",
            description = "The 1:1 conversation of this pair already existed",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = Conversations.View.class)))
    @APIResponse(
            responseCode = "409",
            description = "The caller started the most conversations allowed, or another "
                    + "member was put in the most conversations by others allowed")
    @APIResponse(
            responseCode = "201",
            description = "Created (or, with a reused Idempotency-Key, created before)",
            headers = {
                @Header(
                        name = "Location",
                        description = "Path of the new conversation, /conversations/{id}",
                        schema =
                                @Schema(
                                        type = SchemaType.STRING,
                                        format = "uri-reference",
                                        pattern = "^/conversations/" + NewResource.UUID_PATH,
                                        maxLength = 51))
            },
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = Conversations.View.class)))
    public Uni<RestResponse<Conversations.View>> create(
            @Parameter(ref = ApiDefinition.IDEMPOTENCY_KEY) @HeaderParam(IdempotencyKeys.HEADER) String key,
            @Valid @NotNull NewConversation request) {
        String me = caller.username();
        // Which field named each member, for a 400 that points at an unknown user.
        Map<String, String> fields = new HashMap<>();
        Set<String> members = rules.members(me, request.members(), fields);
        String title = rules.title(request.title());
        Uni<Void> admitted = quotas.admit(me, List.copyOf(members), fields);
        boolean direct = members.size() == 2;
        // The direct path's answer (201 or 200), known once its conditional insert ran.
        AtomicReference<RestResponse<Conversations.View>> answer = new AtomicReference<>();
        return idempotency
                .run(
                        OPERATION,
                        me,
                        key,
                        new Fingerprint(members, title),
                        Plan.class,
                        () -> plan(members),
                        (plan, retry) -> direct
                                ? direct(me, members, title, plan.createdAt(), retry, admitted)
                                        .invoke(answer::set)
                                        .replaceWithVoid()
                                : group(
                                        me,
                                        members,
                                        title,
                                        plan,
                                        retry ? Uni.createFrom().voidItem() : admitted))
                .chain(done -> {
                    if (answer.get() != null) {
                        return Uni.createFrom()
                                .item(done.respond(RestResponse.ResponseBuilder.fromResponse(answer.get())));
                    }
                    if (!direct) {
                        Conversations.Conversation c = group(me, members, title, done.plan());
                        return Uni.createFrom().item(done.respond(created(c.id(), c.view())));
                    }
                    // A completed 1:1 create replayed: 201 if this key's request created it.
                    return conversations.find(done.plan().id()).map(found -> {
                        Conversations.Conversation c = found.orElseThrow(() -> ProblemException.notFound(
                                "No conversation " + done.plan().id()));
                        return done.respond(
                                c.isCreate(me, done.plan().createdAt())
                                        ? created(c.id(), c.view())
                                        : RestResponse.ResponseBuilder.ok(c.view()));
                    });
                });
    }

    private Plan plan(Set<String> members) {
        // A millisecond no other plan of this replica has: with the caller, what tells this create's
        // row from a concurrent one's (Conversation.isCreate).
        Instant now = Instant.ofEpochMilli(planned.next(clock.millis()));
        List<String> pair = List.copyOf(members);
        UUID id = members.size() == 2 ? Conversations.directId(pair.get(0), pair.get(1)) : UUID.randomUUID();
        return new Plan(id, now);
    }

    private static Conversations.Conversation group(String me, Set<String> members, String title, Plan plan) {
        return new Conversations.Conversation(plan.id(), members, title, false, me, plan.createdAt());
    }

    private Uni<RestResponse<Conversations.View>> direct(
            String me, Set<String> members, String title, Instant now, boolean retry, Uni<Void> admitted) {
        List<String> pair = List.copyOf(members);
        UUID id = Conversations.directId(pair.get(0), pair.get(1));
        return conversations.find(id).chain(existing -> {
            if (existing.isPresent()) {
                // Ours only when an earlier attempt of this request (its Idempotency-Key) created it.
                return settle(existing.get(), retry && existing.get().isCreate(me, now));
            }
            return admitted.chain(() -> conversations.insertDirect(
                            new Conversations.Conversation(id, members, title, true, me, now)))
                    .chain(outcome -> {
                        if (outcome.applied()) {
                            return settle(new Conversations.Conversation(id, members, title, true, me, now), true);
                        }
                        if (outcome.answer() != null) {
                            // A concurrent create won; its row is in the answer.
                            return settle(
                                    Conversations.Conversation.of(
                                            outcome.answer().one()),
                                    false);
                        }
                        // Unknown outcome, and not ours: the serial read finished any round in flight, so
                        // the conversation is someone else's now, or nobody's (a create that never ran: 503).
                        return conversations
                                .findLatest(id)
                                .chain(held -> held.isPresent()
                                        ? settle(held.get(), false)
                                        : Uni.createFrom()
                                                .failure(new DriverTimeoutException(
                                                        "A 1:1 create's outcome stayed unknown")));
                    });
        });
    }

    /**
     * Writes both summary rows of a 1:1 and both memberships (the partner added by the creator), with the
     * conversation's creation time as joined_at and as write timestamp: the same bytes each time,
     * so a repeated create also repairs a first one that died between its conditional insert and
     * these writes.
     */
    private Uni<RestResponse<Conversations.View>> settle(Conversations.Conversation c, boolean created) {
        return memberRows(c).map(done -> created ? created(c) : RestResponse.ok(c.view()));
    }

    private Uni<Void> group(String me, Set<String> members, String title, Plan plan, Uni<Void> admitted) {
        Conversations.Conversation c = group(me, members, title, plan);
        return admitted.chain(() -> memberRows(c)).chain(() -> conversations.insertGroup(c));
    }

    /**
     * Every member's summary with its rows in the order of last activity (InboxListing.created) and
     * their membership, added by the creator unless they are the creator, at the creation time:
     * idempotent writes, in parallel.
     */
    private Uni<Void> memberRows(Conversations.Conversation c) {
        Instant at = c.createdAt();
        List<Uni<Void>> writes = new ArrayList<>();
        for (String member : c.members()) {
            String addedBy = member.equals(c.createdBy()) ? null : c.createdBy();
            writes.add(inbox.created(member, c, addedBy));
        }
        return Uni.join().all(writes).andFailFast().replaceWithVoid();
    }

    private static RestResponse<Conversations.View> created(Conversations.Conversation c) {
        return created(c.id(), c.view()).build();
    }

    private static RestResponse.ResponseBuilder<Conversations.View> created(UUID id, Conversations.View view) {
        return NewResource.<Conversations.View>at("/conversations/" + id).entity(view);
    }
}
