package dev.cqlpatterns.groups;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.IntStream;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /groups/{group}/members: members in username order, with their join time (no private fields). A
 * group's members are spread over hash buckets (see group_members in docs/tables.md), so a page reads the next
 * limit+1 members after the cursor from every bucket of the group's generation ({@link MemberLists})
 * at once and merges them: 2 + buckets partitions per page. The cursor is the last username shown.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/groups/{group}/members")
@Tag(name = "groups")
public class GroupMembers {
    @Inject
    Cql cql;

    @Inject
    Groups groups;

    @Inject
    MemberLists lists;

    @Inject
    Cursors cursors;

    /** Read back from cursors by Jackson, also in a native image. */
    @RegisterForReflection
    record Position(@NotNull String after) {}

    @GET
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Members of a group in username order (reads 2 + buckets partitions, 18 by default)",
            description =
                    "Usernames and join times only: a member list carries no one's email or age, which are private.")
    public Uni<Page<Member>> members(
            @Parameter(ref = GroupParameters.GROUP)
                    @PathParam("group")
                    @Pattern(regexp = Groups.NAME, message = Groups.NAME_MESSAGE)
                    String group,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor) {
        int size = cursors.limit(limit);
        String scope = "group-members:" + group;
        // Usernames are never empty, so '' is before the first one.
        String after = cursors.decode(scope, cursor, Position.class)
                .map(Position::after)
                .orElse("");
        return Uni.combine()
                .all()
                .unis(groups.buckets(group), lists.generation(group))
                .asTuple()
                .chain(read -> Uni.join()
                        .all(IntStream.range(0, read.getItem1())
                                .mapToObj(bucket -> lists.members(group, read.getItem2(), bucket, after, size + 1)
                                        .map(rs -> Cql.rows(rs).stream()
                                                .map(Member::of)
                                                .toList()))
                                .toList())
                        .andFailFast())
                .map(perBucket -> {
                    List<Member> merged = new ArrayList<>();
                    perBucket.forEach(merged::addAll);
                    merged.sort(Comparator.comparing(Member::username));
                    if (merged.size() <= size) {
                        return Page.of(merged, null);
                    }
                    List<Member> page = merged.subList(0, size);
                    return Page.of(
                            List.copyOf(page),
                            cursors.encode(
                                    scope, new Position(page.get(size - 1).username())));
                });
    }
}
