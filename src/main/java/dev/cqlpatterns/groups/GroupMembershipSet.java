package dev.cqlpatterns.groups;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.generations.MemberSet;
import dev.cqlpatterns.platform.generations.PartitionGenerations;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.UUID;

/**
 * The groups a user is in: group_memberships_by_user, a set in generations,
 * so that counting it scans a bounded number of tombstones whatever the user left. The membership's
 * claim stays in groups_by_user (Groups); the set follows it, written with the claim's write time.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class GroupMembershipSet implements MemberSet<String, UUID> {
    private static final Query INSERT = Cql.idempotent("INSERT INTO group_memberships_by_user "
            + "(username, generation, groupname, joined) VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE = Cql.idempotent("DELETE FROM group_memberships_by_user USING TIMESTAMP ? "
            + "WHERE username = ? AND generation = ? AND groupname = ?");
    private static final Query ALL = Cql.idempotent(
            "SELECT groupname, joined FROM group_memberships_by_user WHERE username = ? AND generation = ?");
    private static final Query COUNT =
            Cql.idempotent("SELECT count(*) FROM group_memberships_by_user WHERE username = ? AND generation = ?");
    private static final Query DROP =
            Cql.idempotent("DELETE FROM group_memberships_by_user WHERE username = ? AND generation = ?");

    @Inject
    Cql cql;

    @Inject
    PartitionGenerations generations;

    /** {@code username} is in {@code group} since {@code joined}, as of the claim's write time {@code claimed}. */
    Uni<Void> joined(String username, String group, UUID joined, long claimed) {
        return generations.change(this, username, false, g -> put(username, g, group, joined, claimed));
    }

    /** {@code username} left {@code group}: just after the claim, so a later join's claim wins over it. */
    Uni<Void> left(String username, String group, long claimed) {
        return generations.change(this, username, true, g -> remove(username, g, group, claimed + 1));
    }

    /** How many groups {@code username} is in. */
    Uni<Long> count(String username) {
        return generations
                .current(this, username)
                .chain(g -> cql.read(COUNT, username, g))
                .map(rs -> rs.one().getLong(0));
    }

    @Override
    public String name() {
        return "group_memberships_by_user";
    }

    @Override
    public Uni<Map<String, UUID>> held(String username, int generation) {
        return MemberSet.members(
                paging -> cql.read(ALL, paging, username, generation),
                row -> row.getString("groupname"),
                row -> row.getUuid("joined"));
    }

    @Override
    public Uni<?> put(String username, int generation, String group, UUID joined, long timestamp) {
        return cql.write(INSERT, username, generation, group, joined, timestamp);
    }

    @Override
    public Uni<?> remove(String username, int generation, String group, long timestamp) {
        return cql.write(DELETE, timestamp, username, generation, group);
    }

    @Override
    public Uni<Void> drop(String username, int generation) {
        return cql.write(DROP, username, generation).replaceWithVoid();
    }
}
