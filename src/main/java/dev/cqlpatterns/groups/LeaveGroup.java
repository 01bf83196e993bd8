package dev.cqlpatterns.groups;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * DELETE /groups/{group}/members/{username}: the caller leaves a group. The membership in
 * groups_by_user says which bucket and join day hold the caller's rows; all three rows go in one
 * logged batch.

 *
 * <p>After a 503 (e.g. the batch timed out at the batch log, which may still replay it), the same
 * DELETE again finishes the leave: while the membership is there it writes the same idempotent
 * batch again; once the batch has applied (atomically, all three rows) it answers 404, not a member.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/groups/{group}/members/{username}")
@Tag(name = "groups")
public class LeaveGroup {
    private static final Query MEMBERSHIP = Cql.idempotent(
            "SELECT bucket, joined FROM groups_by_user WHERE username = ? AND groupname = ?");
    private static final Query DELETE_CLAIM = Cql.idempotent(
            "DELETE FROM groups_by_user WHERE username = ? AND groupname = ?");
    private static final Query DELETE_MEMBER = Cql.idempotent(
            "DELETE FROM group_members WHERE groupname = ? AND bucket = ? AND username = ?");
    private static final Query DELETE_JOINER = Cql.idempotent(
            "DELETE FROM group_join_dates WHERE groupname = ? AND join_day = ? AND joined = ?");

    @Inject
    Cql cql;

    @Inject
    Caller caller;

    @DELETE
    @Authenticated
    @Operation(summary = "The caller leaves a group")
    @APIResponse(responseCode = "204", description = "Left the group")
    @APIResponse(responseCode = "403", description = "The user is not the caller")
    public Uni<RestResponse<Void>> leave(
            @Parameter(description = "Group name", example = "cassandra-users") @PathParam("group")
            @Pattern(regexp = Groups.NAME, message = Groups.NAME_MESSAGE) String group,
            @Parameter(description = "Username; must be the caller", example = "alice")
            @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE) @PathParam("username") String username) {
        caller.requireSelf(username);
        return cql.read(MEMBERSHIP, username, group).chain(rs -> {
            Row membership = rs.one();
            if (membership == null) {
                return Uni.createFrom().failure(ProblemException.notFound(username + " is not a member of group " + group));
            }
            int bucket = membership.getInt("bucket");
            UUID joined = membership.getUuid("joined");
            int day = Groups.JOINS.granularity().key(TimeUuids.instant(joined));
            return Uni.combine().all().unis(
                    cql.bind(DELETE_CLAIM, username, group),
                    cql.bind(DELETE_MEMBER, group, bucket, username),
                    cql.bind(DELETE_JOINER, group, day, joined))
                    .asTuple().chain(t -> cql.loggedBatch(List.of(t.getItem1(), t.getItem2(), t.getItem3())))
                    .map(done -> RestResponse.<Void>noContent());
        });
    }
}
