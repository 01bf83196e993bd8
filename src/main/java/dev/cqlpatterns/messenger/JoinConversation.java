package dev.cqlpatterns.messenger;

import dev.cqlpatterns.messenger.inbox.InboxListing;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * PUT /conversations/{id}/members/{username}: a member adds someone to a group (seed 000 in cql/SEEDS.md: people
 * join). Messages sent before keep their own recipients; the new member reads the history as every
 * member does.
 *
 * <p>Ordered idempotent writes, no logged batch (a logged batch's log goes to two other
 * nodes, so while a killed node is not yet marked down every batch whose log picks it fails): first
 * the new member's inbox summary (with the clearing of old unread markers, one unlogged batch of
 * their one partition) and the membership in their MembershipSet, then the set addition last. The member set
 * is the authoritative row: it lets them read the conversation and be sent its messages, and it is
 * what a retry reads to decide whether anything is left to do. Added first, a join that stopped
 * half way would be answered "already a member" with no inbox row, for good. Between the two, the
 * conversation shows in the new member's inbox while opening it is still a 404: a moment early,
 * never a member without their inbox.
 *
 * <p>After a 503 half way, the same PUT again finds the user not yet a member and writes everything
 * again (idempotent; the inbox rows get the retry's time), answering 200 with the members as the
 * first would have; once the addition has landed it answers the same, writing nothing.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations/{id}/members/{username}")
@Tag(name = "messenger")
@Authenticated
public class JoinConversation {

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
    MessagePositions positions;

    @Inject
    MessengerSettings settings;

    @PUT
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Add a member to a group conversation (any member may; adding a member again changes nothing)",
            description = "The new member must be a signed-up user (404 naming them). The conversation counts against "
                    + "the new member's bound of conversations others put them in (2,000; 409), never against the "
                    + "cap of conversations they started themselves.")
    @APIResponse(
            responseCode = "404",
            description = "No such conversation the caller is a member of, or no such user",
            content = @Content(mediaType = "application/problem+json", schema = @Schema(ref = "Problem")))
    @APIResponse(
            responseCode = "200",
            description = "The conversation with its members",
            content =
                    @Content(
                            mediaType = MediaType.APPLICATION_JSON,
                            schema = @Schema(implementation = Conversations.View.class)))
    @APIResponse(
            responseCode = "409",
            description = "A 1:1 conversation (its members are fixed), a full conversation, or "
                    + "a user already put in the most conversations by others allowed")
    public Uni<Conversations.View> join(
            @Parameter(ref = ConversationParameters.ID) @PathParam("id") UUID id,
            @Parameter(description = "Who joins", example = "carol")
                    @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE)
                    @PathParam("username")
                    String username) {
        String me = caller.username();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        return conversations.requireMember(id, me).chain(c -> {
            if (c.hasMember(username)) {
                return Uni.createFrom().item(c.view());
            }
            if (c.direct()) {
                throw ProblemException.conflict("The members of a 1:1 conversation are fixed; start a group instead");
            }
            if (c.members().size() >= settings.maxMembers()) {
                throw ProblemException.conflict(
                        "The conversation already has " + c.members().size() + " members, the most allowed");
            }
            Set<String> members = new TreeSet<>(c.members());
            members.add(username);
            Conversations.Conversation joined =
                    new Conversations.Conversation(c.id(), members, c.title(), false, c.createdBy(), c.createdAt());
            Instant at = c.changeTime(now);
            return Uni.combine()
                    .all()
                    .unis(quotas.admitInto(id, username).replaceWith(Boolean.TRUE), positions.head(id))
                    .asTuple()
                    // The member starts after the last message. Markers a send racing an earlier
                    // leave may have left behind go in the summary's batch (one partition).
                    .chain(admitted -> inbox.joined(username, joined, at, me, admitted.getItem2()))
                    .chain(() -> conversations.addMember(id, username, at))
                    .map(done -> joined.view());
        });
    }
}
