package dev.cqlpatterns.groups;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.openapi.ApiDefinition;
import dev.cqlpatterns.platform.time.TimeUuids;
import dev.cqlpatterns.users.UserStore;
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
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * PUT /groups/{group}/members/{username}: the caller joins a group (created by its first join).
 * The membership is claimed in groups_by_user with INSERT ... IF NOT EXISTS, so joining twice keeps
 * the first join time; then the member row (in its hash bucket), the joiner row (in its join
 * day) and the user's GroupMembershipSet row are written. They hold the username and join time only: the user's email and age are
 * private and no group answer shows them, so they are not copied. Joining again rewrites those two rows from the
 * claim, which also repairs a join interrupted half-way.
 *
 * <p>Ordered idempotent writes, no logged batch (a logged batch's log goes to two other
 * nodes, so while a killed node is not yet marked down every batch whose log picks it fails, and no
 * retry helps). The claim goes first although it is the authoritative row: it decides the join time
 * and bucket the other rows are keyed by, and it is what a retry reads to finish the join. The
 * others follow together: neither decides anything, and a reader between them sees the
 * member in one list and not yet in the other, or in neither, never a member who is not one.
 *
 * <p>After a 503 after the claim, the same PUT again finds the claim and writes the two rows from
 * it: the join is finished, with the first attempt's join time (answered 200, as every repeated
 * join is). The rewrite holds the same values (the claim's bucket and join time) under the same
 * timestamp, the claim's write time (MemberLists.add), so a retry overrides nothing but itself, a
 * leave's deletes just after it win whatever the replicas' clocks, and a retry after a leave finds
 * no claim and joins anew.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/groups/{group}/members/{username}")
@Tag(name = "groups")
public class JoinGroup {

    @Inject
    Groups groups;

    @Inject
    MemberLists lists;

    @Inject
    GroupMembershipSet memberships;

    @Inject
    GroupsSettings settings;

    @Inject
    UserStore users;

    @Inject
    BucketRegistry registry;

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    /** A membership; {@code claimed}: its claim's write time, null where not read yet. */
    private record Membership(int bucket, UUID joined, boolean created, Long claimed) {}

    @PUT
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The caller joins a group (the group is created by its first join)")
    @APIResponse(
            responseCode = "200",
            description = "Already a member; the membership is unchanged",
            content = @Content(schema = @Schema(implementation = Member.class)))
    @APIResponse(
            responseCode = "201",
            description = "Joined",
            content = @Content(schema = @Schema(implementation = Member.class)))
    @APIResponse(responseCode = "403", description = "The user is not the caller")
    @APIResponse(responseCode = "409", description = "The caller is in the maximum number of groups")
    public Uni<RestResponse<Member>> join(
            @Parameter(ref = GroupParameters.GROUP)
                    @PathParam("group")
                    @Pattern(regexp = Groups.NAME, message = Groups.NAME_MESSAGE)
                    String group,
            @Parameter(ref = ApiDefinition.CALLER)
                    @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE)
                    @PathParam("username")
                    String username) {
        caller.requireSelf(username);
        Instant now = clock.instant();
        return users.find(username).chain(user -> {
            if (user == null) {
                return Uni.createFrom().failure(ProblemException.notFound("No user " + username + "; create it first"));
            }
            return membership(group, username, now)
                    .call(m -> registry.record(Groups.JOINS, group, TimeUuids.instant(m.joined())))
                    .call(m -> claimed(group, username, m)
                            .chain(claimed -> Uni.join()
                                    .all(
                                            lists.add(group, m.bucket(), username, m.joined(), claimed),
                                            memberships.joined(username, group, m.joined(), claimed))
                                    .andFailFast()))
                    .map(m -> RestResponse.status(
                            m.created() ? RestResponse.Status.CREATED : RestResponse.Status.OK,
                            new Member(username, TimeUuids.instant(m.joined()))));
        });
    }

    /**
     * The write time of the membership's claim: read with it, or read back after a claim (the ballot's
     * time, which only Cassandra knows). A membership already left again falls back to its join time.
     */
    private Uni<Long> claimed(String group, String username, Membership m) {
        if (m.claimed() != null) {
            return Uni.createFrom().item(m.claimed());
        }
        return groups.membership(username, group)
                .map(row -> row != null && m.joined().equals(row.joined())
                        ? row.claimed()
                        : TimeUuids.instant(m.joined()).toEpochMilli() * 1_000);
    }

    /** The existing membership, or a new one claimed now. */
    private Uni<Membership> membership(String group, String username, Instant now) {
        return membership(group, username, now, true);
    }

    private Uni<Membership> membership(String group, String username, Instant now, boolean firstTry) {
        return groups.membership(username, group).chain(existing -> {
            if (existing != null) {
                return Uni.createFrom()
                        .item(new Membership(existing.bucket(), existing.joined(), false, existing.claimed()));
            }
            return memberships.count(username).chain(count -> {
                if (count >= settings.maxGroupsPerUser()) {
                    return Uni.createFrom()
                            .failure(ProblemException.conflict(
                                    "A user may be in at most " + settings.maxGroupsPerUser() + " groups"));
                }
                return groups.bucketsCreatingGroup(group).chain(buckets -> {
                    Membership mine = new Membership(Groups.bucketOf(username, buckets), TimeUuids.at(now), true, null);
                    return groups.claimMembership(username, group, mine.bucket(), mine.joined())
                            .chain(claim -> {
                                if (claim.applied()) {
                                    return Uni.createFrom().item(mine);
                                }
                                if (claim.winner() != null) {
                                    // A concurrent join of the same user won: use its join time.
                                    return Uni.createFrom()
                                            .item(new Membership(
                                                    claim.winner().bucket(),
                                                    claim.winner().joined(),
                                                    false,
                                                    null));
                                }
                                // Unknown outcome, and the serial read found another join or none: start
                                // over once (that read finished any round in flight).
                                return firstTry
                                        ? membership(group, username, now, false)
                                        // Answered 503 with Retry-After, as any unknown outcome.
                                        : Uni.createFrom()
                                                .failure(new DriverTimeoutException(
                                                        "A group join's claim stayed unknown twice"));
                            });
                });
            });
        });
    }
}
