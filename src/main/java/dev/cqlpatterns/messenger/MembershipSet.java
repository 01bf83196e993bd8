package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.generations.MemberSet;
import dev.cqlpatterns.platform.generations.PartitionGenerations;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Collectors;

/**
 * The conversations a user is in, and who put them there: conversation_memberships_by_user, a set in
 * generations, so that counting or listing it scans a bounded number of
 * tombstones whatever the user left. Written beside the inbox summary with the same write timestamp;
 * the caps count it and GET /messages?sender= lists it.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class MembershipSet implements MemberSet<String, MembershipSet.Membership> {
    private static final Query INSERT = Cql.idempotent("INSERT INTO conversation_memberships_by_user "
            + "(username, generation, conversation_id, added_by, joined_at) VALUES (?, ?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE = Cql.idempotent("DELETE FROM conversation_memberships_by_user "
            + "USING TIMESTAMP ? WHERE username = ? AND generation = ? AND conversation_id = ?");
    private static final Query ALL = Cql.idempotent("SELECT conversation_id, added_by, joined_at "
            + "FROM conversation_memberships_by_user WHERE username = ? AND generation = ?");
    private static final Query COUNT = Cql.idempotent("SELECT count(*) AS members, count(added_by) AS added "
            + "FROM conversation_memberships_by_user WHERE username = ? AND generation = ?");
    private static final Query ADDED_BY = Cql.idempotent("SELECT added_by FROM conversation_memberships_by_user "
            + "WHERE username = ? AND generation = ? AND conversation_id = ?");
    private static final Query DROP =
            Cql.idempotent("DELETE FROM conversation_memberships_by_user WHERE username = ? AND generation = ?");

    @Inject
    Cql cql;

    @Inject
    PartitionGenerations generations;

    /** One membership: who put the user in (null: they created the conversation), and since when. */
    public record Membership(String addedBy, Instant joinedAt) {}

    /** How many conversations a user is in, and how many of them someone else put them in. */
    record Counts(long members, long added) {
        long own() {
            return members - added;
        }
    }

    /**
     * {@code username} is in the conversation since {@code joinedAt}, put there by {@code addedBy} (null:
     * themself).
     */
    public Uni<Void> joined(String username, UUID conversationId, String addedBy, Instant joinedAt, long timestamp) {
        Membership m = new Membership(addedBy, joinedAt);
        return generations.change(
                this, username, false, g -> put(username, g, conversationId.toString(), m, timestamp));
    }

    /** {@code username} is no longer in the conversation as of {@code timestamp}. */
    public Uni<Void> left(String username, UUID conversationId, long timestamp) {
        return generations.change(this, username, true, g -> remove(username, g, conversationId.toString(), timestamp));
    }

    /** The user's counts, the conversation {@code notCounted} (null: none) left out: two or three reads. */
    Uni<Counts> counts(String username, UUID notCounted) {
        return generations.current(this, username).chain(g -> {
            Uni<Counts> all = cql.read(COUNT, username, g).map(rs -> {
                Row row = rs.one();
                return new Counts(row.getLong("members"), row.getLong("added"));
            });
            if (notCounted == null) {
                return all;
            }
            return Uni.combine()
                    .all()
                    .unis(all, cql.read(ADDED_BY, username, g, notCounted))
                    .with((counts, rs) -> {
                        Row row = rs.one();
                        if (row == null) {
                            return counts;
                        }
                        return new Counts(counts.members() - 1, counts.added() - (row.isNull("added_by") ? 0 : 1));
                    });
        });
    }

    /** The conversations the user is in. */
    Uni<Set<UUID>> conversations(String username) {
        return generations
                .current(this, username)
                .chain(g -> held(username, g))
                .map(held -> held.keySet().stream().map(UUID::fromString).collect(Collectors.toSet()));
    }

    @Override
    public String name() {
        return "conversation_memberships_by_user";
    }

    @Override
    public Uni<Map<String, Membership>> held(String username, int generation) {
        return MemberSet.members(
                paging -> cql.read(ALL, paging, username, generation),
                row -> row.getUuid("conversation_id").toString(),
                MembershipSet::member);
    }

    private static Membership member(Row row) {
        return new Membership(row.getString("added_by"), row.getInstant("joined_at"));
    }

    @Override
    public Uni<?> put(String username, int generation, String id, Membership m, long timestamp) {
        return cql.bind(INSERT, username, generation, UUID.fromString(id), m.addedBy(), m.joinedAt(), timestamp)
                .map(bound -> m.addedBy() == null ? bound.unset(3) : bound)
                .chain(cql::execute);
    }

    @Override
    public Uni<?> remove(String username, int generation, String id, long timestamp) {
        return cql.write(DELETE, timestamp, username, generation, UUID.fromString(id));
    }

    @Override
    public Uni<Void> drop(String username, int generation) {
        return cql.write(DROP, username, generation).replaceWithVoid();
    }
}
