package dev.cqlpatterns.groups;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import io.quarkus.security.Authenticated;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /groups/{group}/members/latest: newest joiners first, from group_join_dates partitioned by
 * (group, join day) with joined timeuuid DESC. The bucket registry lists the days that had joins,
 * newest first, so the walk visits only those: a page reads 1 (groups) + 1 (time_buckets) + the
 * days it visits, at most cql-patterns.groups.latest-max-days. The cursor is the day and the
 * timeuuid of the last joiner shown, or the next day to visit when the day budget ran out.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/groups/{group}/members/latest")
@Tag(name = "groups")
public class LatestJoiners {
    private static final Query DAY = Cql.idempotent("SELECT joined, username FROM group_join_dates "
            + "WHERE groupname = ? AND join_day = ? LIMIT ?");
    private static final Query DAY_BEFORE = Cql.idempotent("SELECT joined, username FROM group_join_dates "
            + "WHERE groupname = ? AND join_day = ? AND joined < ? LIMIT ?");

    @Inject
    Cql cql;

    @Inject
    Groups groups;

    @Inject
    GroupsSettings settings;

    @Inject
    BucketRegistry registry;

    @Inject
    Cursors cursors;

    /**
     * Continue at {@code day}: after {@code joined} in it, or from its newest when joined is null.
     * Read back from cursors by Jackson, also in a native image.
     */
    @RegisterForReflection
    record Position(int day, UUID joined) {
    }

    private record Joiner(int day, UUID joined, Member member) {
    }

    @GET
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The newest joiners of a group first, walking join days newest first (reads 2 + days visited partitions)",
            description = "Usernames and join times only: the list carries no one's email or age, which are private.")
    public Uni<Page<Member>> latest(
            @Parameter(description = "Group name", example = "cassandra-users") @PathParam("group")
            @Pattern(regexp = Groups.NAME, message = Groups.NAME_MESSAGE) String group,
            @Parameter(description = "Page size, 1 to 500 (default 50)", example = "10") @QueryParam("limit") Integer limit,
            @Parameter(description = "The next value of the previous page") @QueryParam("cursor") String cursor) {
        int size = cursors.limit(limit);
        String scope = "group-latest:" + group;
        Position from = cursors.decode(scope, cursor, Position.class).orElse(new Position(Integer.MAX_VALUE, null));
        int maxDays = settings.latestMaxDays();
        return groups.buckets(group)
                .chain(buckets -> registry.newestFirst(Groups.JOINS, group, from.day(), 0, maxDays + 1))
                .chain(days -> walk(group, days.subList(0, Math.min(days.size(), maxDays)), 0, from, size + 1,
                        new ArrayList<>())
                        .map(found -> {
                            if (found.size() > size) {
                                Joiner last = found.get(size - 1);
                                return page(found.subList(0, size), scope, new Position(last.day(), last.joined()));
                            }
                            // The day budget ran out before the page filled: continue at the next day.
                            return page(found, scope, days.size() > maxDays ? new Position(days.get(maxDays), null) : null);
                        }));
    }

    private Page<Member> page(List<Joiner> joiners, String scope, Position next) {
        return Page.of(joiners.stream().map(Joiner::member).toList(), next == null ? null : cursors.encode(scope, next));
    }

    /** Reads day after day, newest first, until {@code wanted} joiners are found or the days run out. */
    private Uni<List<Joiner>> walk(String group, List<Integer> days, int index, Position from, int wanted,
            List<Joiner> found) {
        if (index >= days.size() || found.size() >= wanted) {
            return Uni.createFrom().item(found);
        }
        int day = days.get(index);
        int need = wanted - found.size();
        Uni<AsyncResultSet> rows = day == from.day() && from.joined() != null
                ? cql.read(DAY_BEFORE, 1, group, day, from.joined(), need)
                : cql.read(DAY, 1, group, day, need);
        return rows.chain(rs -> {
            Cql.rows(rs).forEach(row -> found.add(new Joiner(day, row.getUuid("joined"), Member.of(row))));
            return walk(group, days, index + 1, from, wanted, found);
        });
    }
}
