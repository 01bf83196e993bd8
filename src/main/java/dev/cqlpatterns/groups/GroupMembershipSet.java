package dev.cqlpatterns.groups;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.generations.GenerationalSet;
import dev.cqlpatterns.platform.generations.PartitionGenerations;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;

/**
 * The groups a user is in: group_memberships_by_user, a set in generations (cql/056_membership_sets.cql),
 * so that counting it scans a bounded number of tombstones whatever the user left. The membership's
 * claim stays in groups_by_user (Groups); this set follows it, written with the claim's write time.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class GroupMembershipSet implements GenerationalSet<String> {
    private static final Query INSERT = Cql.idempotent("INSERT INTO group_memberships_by_user "
            + "(username, generation, groupname, joined) VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE = Cql.idempotent("DELETE FROM group_memberships_by_user USING TIMESTAMP ? "
            + "WHERE username = ? AND generation = ? AND groupname = ?");
    private static final Query ALL = Cql.idempotent(
            "SELECT groupname, joined FROM group_memberships_by_user WHERE username = ? AND generation = ?");
    private static final Query DROP =
            Cql.idempotent("DELETE FROM group_memberships_by_user WHERE username = ? AND generation = ?");

    @Inject
    Cql cql;

    @Inject
    PartitionGenerations generations;

    /** {@code username} is in {@code group} since {@code joined}, as of the claim's write time {@code claimed}. */
    Uni<Void> joined(String username, String group, UUID joined, long claimed) {
        return generations.change(this, username, false, g -> cql.write(INSERT, username, g, group, joined, claimed));
    }

    /** {@code username} left {@code group}: just after the claim, so a later join's claim wins over it. */
    Uni<Void> left(String username, String group, long claimed) {
        return generations.change(this, username, true, g -> cql.write(DELETE, claimed + 1, username, g, group));
    }

    @Override
    public String name() {
        return "group_memberships_by_user";
    }

    @Override
    public Uni<Long> copy(String username, int from, int to) {
        return PartitionGenerations.forEachRow(
                paging -> cql.read(ALL, paging, username, from),
                row -> cql.write(INSERT, username, to, row.getString("groupname"), row.getUuid("joined"), COPIED));
    }

    @Override
    public Uni<Void> drop(String username, int generation) {
        return cql.write(DROP, username, generation).replaceWithVoid();
    }
}
