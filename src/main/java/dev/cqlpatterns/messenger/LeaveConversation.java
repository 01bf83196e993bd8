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
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * DELETE /conversations/{id}/members/{username}: someone leaves a group (seed 000 in cql/SEEDS.md: people leave).
 * The messages they were sent keep them as recipients; from now on they are not sent any, and
 * the conversation leaves their inbox.
 *
 * <p>Ordered idempotent writes, no logged batch (a logged batch's log goes to two other
 * nodes, so while a killed node is not yet marked down every batch whose log picks it fails): first
 * the inbox (summary and unread markers in one unlogged batch of their one partition, and the
 * membership in the leaver's MembershipSet), then the set removal last. The member set is what every conversation
 * route checks, and what a retry reads to know there is something left to do: removed first, a
 * leave that stopped half way would answer the retry 404 and leave the conversation in the inbox
 * for good. Between the two, the leaver is still a member whose inbox no longer lists the
 * conversation; a message sent then may leave unread markers behind, and write its last-message
 * cells over the deleted summary (a row without joined_at, which the inbox skips), which the retry
 * (and any later join) clears.
 *
 * <p>After a 503 half way, the same DELETE again finds the member listed and writes everything
 * again (idempotent), answering 204 as the first would have; once the removal has landed it answers
 * 404, not a member.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations/{id}/members/{username}")
@Tag(name = "messenger")
@Authenticated
public class LeaveConversation {

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @Inject
    Conversations conversations;

    @Inject
    InboxListing inbox;

    @DELETE
    @Operation(summary = "Leave a group conversation, or (its creator only) remove someone from it")
    @APIResponse(responseCode = "204", description = "Removed")
    @APIResponse(responseCode = "403", description = "Only the conversation's creator removes other members")
    @APIResponse(responseCode = "409", description = "A 1:1 conversation: its members are fixed")
    public Uni<RestResponse<Void>> leave(
            @Parameter(ref = ConversationParameters.ID) @PathParam("id") UUID id,
            @Parameter(
                            description = "Who leaves: the caller, or anyone when the caller created the conversation",
                            example = "carol")
                    @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE)
                    @PathParam("username")
                    String username) {
        String me = caller.username();
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        return conversations.requireMember(id, me).chain(c -> {
            if (!c.hasMember(username)) {
                throw ProblemException.notFound(username + " is not a member of conversation " + id);
            }
            if (c.direct()) {
                throw ProblemException.conflict("The members of a 1:1 conversation are fixed");
            }
            if (!username.equals(me) && !me.equals(c.createdBy())) {
                throw ProblemException.forbidden("Only the creator of a conversation removes other members");
            }
            Instant at = c.changeTime(now);
            return inbox.forget(username, id, at)
                    .chain(() -> conversations.removeMember(id, username, at))
                    .map(done -> RestResponse.<Void>noContent());
        });
    }
}
