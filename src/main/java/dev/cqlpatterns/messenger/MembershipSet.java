package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.generations.GenerationalSet;
import dev.cqlpatterns.platform.generations.PartitionGenerations;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.UUID;

/**
 * The conversations a user is in, and who put them there: conversation_memberships_by_user, a set in
 * generations (cql/056_membership_sets.cql), so that counting it scans a bounded number of
 * tombstones whatever the user left. Written beside the inbox summary with the same write timestamp.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class MembershipSet implements GenerationalSet<String> {
    private static final Query INSERT = Cql.idempotent("INSERT INTO conversation_memberships_by_user "
            + "(username, generation, conversation_id, added_by, joined_at) VALUES (?, ?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE = Cql.idempotent("DELETE FROM conversation_memberships_by_user "
            + "USING TIMESTAMP ? WHERE username = ? AND generation = ? AND conversation_id = ?");
    private static final Query ALL = Cql.idempotent("SELECT conversation_id, added_by, joined_at "
            + "FROM conversation_memberships_by_user WHERE username = ? AND generation = ?");
    private static final Query DROP =
            Cql.idempotent("DELETE FROM conversation_memberships_by_user WHERE username = ? AND generation = ?");

    @Inject
    Cql cql;

    @Inject
    PartitionGenerations generations;

    /**
     * {@code username} is in the conversation since {@code joinedAt}, put there by {@code addedBy}
     * (null: they created it), written as of {@code timestamp}.
     */
    Uni<Void> joined(String username, UUID conversationId, String addedBy, Instant joinedAt, long timestamp) {
        return generations.change(
                this,
                username,
                false,
                g -> cql.bind(INSERT, username, g, conversationId, addedBy, joinedAt, timestamp)
                        .map(bound -> addedBy == null ? bound.unset(3) : bound)
                        .chain(cql::execute));
    }

    /** {@code username} is no longer in the conversation as of {@code timestamp}. */
    Uni<Void> left(String username, UUID conversationId, long timestamp) {
        return generations.change(this, username, true, g -> cql.write(DELETE, timestamp, username, g, conversationId));
    }

    @Override
    public String name() {
        return "conversation_memberships_by_user";
    }

    @Override
    public Uni<Long> copy(String username, int from, int to) {
        return PartitionGenerations.forEachRow(
                paging -> cql.read(ALL, paging, username, from),
                row -> cql.bind(
                                INSERT,
                                username,
                                to,
                                row.getUuid("conversation_id"),
                                row.getString("added_by"),
                                row.getInstant("joined_at"),
                                COPIED)
                        .map(bound -> row.isNull("added_by") ? bound.unset(3) : bound)
                        .chain(cql::execute));
    }

    @Override
    public Uni<Void> drop(String username, int generation) {
        return cql.write(DROP, username, generation).replaceWithVoid();
    }
}
