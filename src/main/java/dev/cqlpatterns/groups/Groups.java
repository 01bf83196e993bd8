package dev.cqlpatterns.groups;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.util.Optional;
import java.util.UUID;

/**
 * What the group functions share: the groups table (a group and its bucket count), every statement
 * on groups_by_user (a user's memberships, their bucket and join time), the bucket a member lives
 * in, and the time series of join days.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class Groups {
    public static final String NAME = "^[a-z0-9_.-]{1,64}$";
    public static final String NAME_MESSAGE = "must be 1 to 64 characters of a-z, 0-9, _ . -";

    /** The days each group had joins on, newest first (group_join_dates). */
    static final TimeSeries JOINS = TimeSeries.perEntity("group-joins", Granularity.DAY, Optional.empty());

    private static final Query BUCKETS = Cql.idempotent("SELECT buckets FROM groups WHERE groupname = ?");
    // Conditional (Cql.conditional): every answer, applied or not, is the group's bucket count.
    private static final Query CREATE =
            Cql.conditional("INSERT INTO groups (groupname, buckets, created_at) VALUES (?, ?, ?) IF NOT EXISTS");
    /** JoinGroup and LeaveGroup: the caller's membership of one group, if any. */
    private static final Query MEMBERSHIP = Cql.idempotent("SELECT bucket, joined, writetime(joined) AS claimed "
            + "FROM groups_by_user WHERE username = ? AND groupname = ?");

    // Conditional (Cql.conditional), settled by CompareAndSet: the claim holding this join's own
    // timeuuid is this join's, whatever Cassandra answered.
    private static final Query CLAIM_MEMBERSHIP = Cql.conditional(
            "INSERT INTO groups_by_user (username, groupname, bucket, joined) VALUES (?, ?, ?, ?) IF NOT EXISTS");
    /** LeaveGroup: the membership, once its member row is gone. */
    private static final Query DELETE_MEMBERSHIP =
            Cql.idempotent("DELETE FROM groups_by_user USING TIMESTAMP ? WHERE username = ? AND groupname = ?");

    @Inject
    Cql cql;

    @Inject
    GroupsSettings settings;

    @Inject
    Clock clock;

    @Inject
    CompareAndSet cas;

    /**
     * A user's membership of a group as groups_by_user holds it: its member bucket, join time, and
     * the write time of its claim (microseconds; null where Cassandra's answer did not carry it).
     */
    record MembershipRow(int bucket, UUID joined, Long claimed) {}

    /** The outcome of a claim: applied, or lost to {@code winner} (null when the outcome stayed unknown). */
    record Claim(boolean applied, MembershipRow winner) {}

    /** For the bucket roller, which finds every TimeSeries bean. */
    @Produces
    @Singleton
    TimeSeries joins() {
        return JOINS;
    }

    /** The group's bucket count; 404 when there is no such group. One partition read. */
    Uni<Integer> buckets(String group) {
        return cql.read(BUCKETS, group).map(rs -> {
            Row row = rs.one();
            if (row == null) {
                throw ProblemException.notFound("No group " + group);
            }
            return row.getInt("buckets");
        });
    }

    /** The group's bucket count, creating the group on its first join. */
    Uni<Integer> bucketsCreatingGroup(String group) {
        return cql.read(BUCKETS, group).chain(rs -> {
            Row row = rs.one();
            if (row != null) {
                return Uni.createFrom().item(row.getInt("buckets"));
            }
            return cql.write(CREATE, group, settings.buckets(), clock.instant())
                    // Not applied: another join (or the driver's other coordinator) created it
                    // first; its count is in the answer.
                    .map(created -> created.wasApplied()
                            ? settings.buckets()
                            : created.one().getInt("buckets"))
                    // Unknown outcome: a serial read settles it; still no group, the join answers 503.
                    .onFailure(CompareAndSet::unknownOutcome)
                    .recoverWithUni(failure -> cql.read(BUCKETS, cql.serially(), group)
                            .chain(settled -> {
                                Row created = settled.one();
                                return created != null
                                        ? Uni.createFrom().item(created.getInt("buckets"))
                                        : Uni.createFrom().failure(failure);
                            }));
        });
    }

    /** The user's membership of the group, null when there is none. One partition read. */
    Uni<MembershipRow> membership(String username, String group) {
        return cql.read(MEMBERSHIP, username, group).map(rs -> {
            Row row = rs.one();
            return row == null
                    ? null
                    : new MembershipRow(row.getInt("bucket"), row.getUuid("joined"), row.getLong("claimed"));
        });
    }

    /**
     * Claims the membership (IF NOT EXISTS), keeping the first join: applied when the claim that holds
     * is this one's ({@code joined}, read at the serial level when Cassandra's answer is not proof).
     */
    Uni<Claim> claimMembership(String username, String group, int bucket, UUID joined) {
        return cas.conditional(
                        "groups_by_user",
                        cql.write(CLAIM_MEMBERSHIP, username, group, bucket, joined),
                        () -> cql.read(MEMBERSHIP, cql.serially(), username, group)
                                .map(claim -> {
                                    Row held = claim.one();
                                    return held != null && joined.equals(held.getUuid("joined"));
                                }))
                .map(outcome -> {
                    if (outcome.applied() || outcome.answer() == null) {
                        return new Claim(outcome.applied(), null);
                    }
                    // A concurrent join of the same user won: its bucket and join time.
                    Row theirs = outcome.answer().one();
                    return new Claim(false, new MembershipRow(theirs.getInt("bucket"), theirs.getUuid("joined"), null));
                });
    }

    /** Deletes the membership with write timestamp {@code at} (microseconds). */
    Uni<Void> deleteMembership(String username, String group, long at) {
        return cql.write(DELETE_MEMBERSHIP, at, username, group).replaceWithVoid();
    }

    /** The member bucket of a username: the first 4 bytes of its SHA-256, modulo the bucket count. */
    static int bucketOf(String username, int buckets) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(username.getBytes(StandardCharsets.UTF_8));
            int first =
                    ((hash[0] & 0xFF) << 24) | ((hash[1] & 0xFF) << 16) | ((hash[2] & 0xFF) << 8) | (hash[3] & 0xFF);
            return Integer.remainderUnsigned(first, buckets);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
