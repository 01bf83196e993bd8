package dev.cqlpatterns.groups;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.openapi.ApiDefinition;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * DELETE /groups/{group}/members/{username}: the caller leaves a group. The membership in
 * groups_by_user says which bucket and join day hold the caller's rows.
 *
 * <p>Ordered idempotent writes, no logged batch (see JoinGroup): first the member row, the
 * joiner row and the user's GroupMembershipSet (together: neither decides anything), then the
 * membership last. The membership is the authoritative row, but deleting it first would leave a leave that
 * stopped half way unfinishable: the retry would find no membership, answer 404 and never learn
 * which bucket and day still list the member. A reader between the writes sees the member gone from
 * the lists while groups_by_user still counts the group among the caller's: on the safe side, the
 * caller is only ever listed while a member.
 *
 * <p>Every delete carries a timestamp just after the membership's claim (MemberLists.removedAt):
 * newer than the join it undoes and older than any later join (a later claim's Paxos ballot is
 * greater), whatever the clocks of the replicas that served them.
 *
 * <p>After a 503 half way, the same DELETE again finds the membership and deletes all three rows
 * again (idempotent), answering 204 as the first would have; once the membership is gone it answers
 * 404, not a member.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/groups/{group}/members/{username}")
@Tag(name = "groups")
public class LeaveGroup {

    @Inject
    Groups groups;

    @Inject
    Caller caller;

    @Inject
    MemberLists lists;

    @Inject
    GroupMembershipSet memberships;

    @DELETE
    @Authenticated
    @Operation(summary = "The caller leaves a group")
    @APIResponse(responseCode = "204", description = "Left the group")
    @APIResponse(responseCode = "403", description = "The user is not the caller")
    public Uni<RestResponse<Void>> leave(
            @Parameter(ref = GroupParameters.GROUP)
                    @PathParam("group")
                    @Pattern(regexp = Groups.NAME, message = Groups.NAME_MESSAGE)
                    String group,
            @Parameter(ref = ApiDefinition.CALLER)
                    @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE)
                    @PathParam("username")
                    String username) {
        caller.requireSelf(username);
        return groups.membership(username, group).chain(membership -> {
            if (membership == null) {
                return Uni.createFrom()
                        .failure(ProblemException.notFound(username + " is not a member of group " + group));
            }
            long claimed = membership.claimed();
            return Uni.join()
                    .all(
                            lists.remove(group, membership.bucket(), username, membership.joined(), claimed),
                            memberships.left(username, group, claimed))
                    .andFailFast()
                    // Just after the claim: newer than it, older than any later claim (Paxos ballots grow).
                    .chain(() -> groups.deleteMembership(username, group, claimed + 1))
                    .map(done -> RestResponse.<Void>noContent());
        });
    }
}
