package dev.cqlpatterns.groups;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.time.TimeBuckets;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.UUID;

/**
 * Keeps the email and age copied into group_members and group_join_dates in step with the user.
 * Each copy is rewritten with UPDATE ... IF EXISTS: a plain UPDATE of a member who left in the
 * meantime would re-create a row holding only the email, a ghost member.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class MemberCopies {
    private static final Query USER_GROUPS = Cql.idempotent(
            "SELECT groupname, bucket, joined FROM groups_by_user WHERE username = ? LIMIT ?");
    private static final Query UPDATE_MEMBER = Cql.query("UPDATE group_members SET email = ?, age = ? "
            + "WHERE groupname = ? AND bucket = ? AND username = ? IF EXISTS");
    private static final Query UPDATE_JOINER = Cql.query("UPDATE group_join_dates SET email = ?, age = ? "
            + "WHERE groupname = ? AND join_day = ? AND joined = ? IF EXISTS");

    @Inject
    Cql cql;

    @Inject
    GroupsSettings settings;

    /** Rewrites the copies of every group the user belongs to (called by users.ChangeEmail). */
    public Uni<Void> userChanged(String username, String email, Integer age) {
        return cql.read(USER_GROUPS, 1, b -> b.setPageSize(settings.maxGroupsPerUser() + 1),
                username, settings.maxGroupsPerUser() + 1)
                .onItem().transformToMulti(rs -> Multi.createFrom().iterable(Cql.rows(rs)))
                .onItem().transformToUni((Row row) -> rewrite(row.getString("groupname"), row.getInt("bucket"),
                        row.getUuid("joined"), username, email, age))
                .merge(settings.copyConcurrency())
                .collect().last().replaceWithVoid();
    }

    /** Rewrites one membership's two copies. */
    Uni<Void> rewrite(String group, int bucket, UUID joined, String username, String email, Integer age) {
        int day = TimeBuckets.dayKey(TimeBuckets.day(TimeUuids.instant(joined)));
        return cql.write(UPDATE_MEMBER, email, age, group, bucket, username)
                .chain(() -> cql.write(UPDATE_JOINER, email, age, group, day, joined))
                .replaceWithVoid();
    }
}
