package dev.cqlpatterns.groups;

import dev.cqlpatterns.platform.buckets.BucketWalk;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /groups/{group}/members/latest: newest joiners first, from group_join_dates partitioned by
 * (group, join day) with joined timeuuid DESC, in the group's generation ({@link MemberLists}). The
 * bucket registry lists the days that had joins, newest first, so the walk visits only those: a page
 * reads 1 (groups) + 1 (the generation) + 1 (time_buckets) + the days it visits, at most cql-patterns.groups.latest-max-days (the walk is platform.buckets.BucketWalk
 * with that budget). The cursor is the day and the timeuuid of the last joiner shown, or where the
 * walk stopped when the day budget ran out.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/groups/{group}/members/latest")
@Tag(name = "groups")
public class LatestJoiners {
    @Inject
    Cql cql;

    @Inject
    Groups groups;

    @Inject
    MemberLists lists;

    @Inject
    GroupsSettings settings;

    @Inject
    BucketWalk walk;

    @Inject
    Cursors cursors;

    /**
     * Continue at {@code day}: after {@code joined} in it, or from its newest when joined is null.
     * Read back from cursors by Jackson, also in a native image.
     */
    @RegisterForReflection
    record Position(int day, UUID joined) {}

    private record Joiner(UUID joined, Member member) {}

    @GET
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary =
                    "The newest joiners of a group first, walking join days newest first (reads 3 + days visited partitions)",
            description = "Usernames and join times only: the list carries no one's email or age, which are private.")
    public Uni<Page<Member>> latest(
            @Parameter(ref = GroupParameters.GROUP)
                    @PathParam("group")
                    @Pattern(regexp = Groups.NAME, message = Groups.NAME_MESSAGE)
                    String group,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor) {
        int size = cursors.limit(limit);
        String scope = "group-latest:" + group;
        BucketWalk.Mark<UUID> from = cursors.decode(scope, cursor, Position.class)
                .map(p -> new BucketWalk.Mark<>(p.day(), p.joined()))
                .orElse(null);
        return Uni.combine()
                .all()
                .unis(groups.buckets(group), lists.generation(group))
                .asTuple()
                .chain(read -> walk.page(
                        Groups.JOINS,
                        group,
                        Integer.MAX_VALUE,
                        0,
                        from,
                        size,
                        settings.latestMaxDays(),
                        Joiner::joined,
                        (day, after, n) -> lists.joiners(group, read.getItem2(), day, after, n)
                                .map(rs -> Cql.rows(rs).stream()
                                        .map(row -> new Joiner(row.getUuid("joined"), Member.of(row)))
                                        .toList())
                                .map(found -> BucketWalk.Chunk.of(found, n, Joiner::joined))))
                .map(page -> page.toPage(
                        Joiner::member, next -> cursors.encode(scope, new Position(next.bucket(), next.after()))));
    }
}
