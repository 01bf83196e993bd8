package dev.cqlpatterns.groups;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.time.TimeUuids;
import dev.cqlpatterns.users.UserStore;
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
import java.util.List;
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
 * the first join time; then the member row (in its hash bucket) and the joiner row (in its join
 * day) are written as one logged batch. They hold the username and join time only: the user's
 * email and age are private and no group answer shows them, so they are not copied (see
 * cql/044_group_members_without_private_fields.cql). Joining again rewrites those two rows from the
 * claim, which also repairs a join interrupted half-way.

 *
 * <p>After a 503 (e.g. the batch timed out at the batch log, which may still replay it), the same
 * PUT again finishes the join: the batch is idempotent (Cql.loggedBatch lets the driver retry it)
 * and a repeated join writes the same rows from the claim.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/groups/{group}/members/{username}")
@Tag(name = "groups")
public class JoinGroup {
    private static final Query MEMBERSHIP = Cql.idempotent(
            "SELECT bucket, joined FROM groups_by_user WHERE username = ? AND groupname = ?");
    private static final Query COUNT_GROUPS = Cql.idempotent("SELECT COUNT(*) FROM groups_by_user WHERE username = ?");
    private static final Query CLAIM = Cql.query(
            "INSERT INTO groups_by_user (username, groupname, bucket, joined) VALUES (?, ?, ?, ?) IF NOT EXISTS");
    private static final Query INSERT_MEMBER = Cql.idempotent("INSERT INTO group_members "
            + "(groupname, bucket, username, joined) VALUES (?, ?, ?, ?)");
    private static final Query INSERT_JOINER = Cql.idempotent("INSERT INTO group_join_dates "
            + "(groupname, join_day, joined, username) VALUES (?, ?, ?, ?)");

    @Inject
    Cql cql;

    @Inject
    Groups groups;

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

    private record Membership(int bucket, UUID joined, boolean created) {
    }

    @PUT
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The caller joins a group (the group is created by its first join)")
    @APIResponse(responseCode = "200", description = "Already a member; the membership is unchanged",
            content = @Content(schema = @Schema(implementation = Member.class)))
    @APIResponse(responseCode = "201", description = "Joined", content = @Content(schema = @Schema(implementation = Member.class)))
    @APIResponse(responseCode = "403", description = "The user is not the caller")
    @APIResponse(responseCode = "409", description = "The caller is in the maximum number of groups")
    public Uni<RestResponse<Member>> join(
            @Parameter(description = "Group name", example = "cassandra-users") @PathParam("group")
            @Pattern(regexp = Groups.NAME, message = Groups.NAME_MESSAGE) String group,
            @Parameter(description = "Username; must be the caller", example = "alice")
            @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE) @PathParam("username") String username) {
        caller.requireSelf(username);
        Instant now = clock.instant();
        return users.find(username).chain(user -> {
            if (user == null) {
                return Uni.createFrom().failure(ProblemException.notFound("No user " + username + "; create it first"));
            }
            return membership(group, username, now)
                    .call(m -> registry.record(Groups.JOINS, group, TimeUuids.instant(m.joined())))
                    .call(m -> write(group, m, username))
                    .map(m -> RestResponse.status(m.created() ? RestResponse.Status.CREATED : RestResponse.Status.OK,
                            new Member(username, TimeUuids.instant(m.joined()))));
        });
    }

    /** The existing membership, or a new one claimed now. */
    private Uni<Membership> membership(String group, String username, Instant now) {
        return cql.read(MEMBERSHIP, username, group).chain(rs -> {
            Row existing = rs.one();
            if (existing != null) {
                return Uni.createFrom().item(new Membership(existing.getInt("bucket"), existing.getUuid("joined"), false));
            }
            return cql.read(COUNT_GROUPS, username).chain(count -> {
                if (count.one().getLong(0) >= settings.maxGroupsPerUser()) {
                    return Uni.createFrom().failure(ProblemException.conflict(
                            "A user may be in at most " + settings.maxGroupsPerUser() + " groups"));
                }
                return groups.bucketsCreatingGroup(group).chain(buckets -> {
                    Membership mine = new Membership(Groups.bucketOf(username, buckets), TimeUuids.at(now), true);
                    return cql.write(CLAIM, username, group, mine.bucket(), mine.joined()).map(claim -> {
                        if (claim.wasApplied()) {
                            return mine;
                        }
                        // A concurrent join of the same user won: use its join time.
                        Row theirs = claim.one();
                        return new Membership(theirs.getInt("bucket"), theirs.getUuid("joined"), false);
                    });
                });
            });
        });
    }

    private Uni<Void> write(String group, Membership m, String username) {
        int day = Groups.JOINS.granularity().key(TimeUuids.instant(m.joined()));
        return Uni.combine().all().unis(
                cql.bind(INSERT_MEMBER, group, m.bucket(), username, m.joined()),
                cql.bind(INSERT_JOINER, group, day, m.joined(), username))
                .asTuple().chain(t -> cql.loggedBatch(List.of(t.getItem1(), t.getItem2()))).replaceWithVoid();
    }
}
