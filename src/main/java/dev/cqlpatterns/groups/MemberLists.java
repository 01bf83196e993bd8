package dev.cqlpatterns.groups;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.generations.Generational;
import dev.cqlpatterns.platform.generations.GenerationalSet;
import dev.cqlpatterns.platform.generations.PartitionGenerations;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;

/**
 * A group's two lists of its members, by username (group_members, in hash buckets) and by join time
 * (group_join_dates, by join day): the one owner of both tables and of their generations (generation 0 is the
 * two tables themselves, the others group_members_generations and group_join_dates_generations;
 * docs/tables.md). One generation per group covers both lists: a leave is one removal, and a move copies the
 * live members of every bucket into both lists of the next generation.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class MemberLists implements GenerationalSet<String> {
    // A member's rows, written USING TIMESTAMP their membership's claim (a join) or a move's COPIED.
    private static final Generational INSERT_MEMBER = Generational.idempotent(
            "INSERT INTO group_members (groupname, bucket, username, joined) VALUES (?, ?, ?, ?) USING TIMESTAMP ?",
            "INSERT INTO group_members_generations (groupname, generation, bucket, username, joined) "
                    + "VALUES (?, ?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Generational INSERT_JOINER = Generational.idempotent(
            "INSERT INTO group_join_dates (groupname, join_day, joined, username) VALUES (?, ?, ?, ?) USING TIMESTAMP ?",
            "INSERT INTO group_join_dates_generations (groupname, generation, join_day, joined, username) "
                    + "VALUES (?, ?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Generational DELETE_MEMBER = Generational.idempotent(
            "DELETE FROM group_members USING TIMESTAMP ? WHERE groupname = ? AND bucket = ? AND username = ?",
            "DELETE FROM group_members_generations USING TIMESTAMP ? "
                    + "WHERE groupname = ? AND generation = ? AND bucket = ? AND username = ?");
    private static final Generational DELETE_JOINER = Generational.idempotent(
            "DELETE FROM group_join_dates USING TIMESTAMP ? WHERE groupname = ? AND join_day = ? AND joined = ?",
            "DELETE FROM group_join_dates_generations USING TIMESTAMP ? "
                    + "WHERE groupname = ? AND generation = ? AND join_day = ? AND joined = ?");
    private static final Generational MEMBER_WRITTEN = Generational.idempotent(
            "SELECT writetime(joined) FROM group_members WHERE groupname = ? AND bucket = ? AND username = ?",
            "SELECT writetime(joined) FROM group_members_generations "
                    + "WHERE groupname = ? AND generation = ? AND bucket = ? AND username = ?");
    private static final Generational JOINER_WRITTEN = Generational.idempotent(
            "SELECT writetime(username) FROM group_join_dates WHERE groupname = ? AND join_day = ? AND joined = ?",
            "SELECT writetime(username) FROM group_join_dates_generations "
                    + "WHERE groupname = ? AND generation = ? AND join_day = ? AND joined = ?");
    private static final Generational MEMBERS = Generational.idempotent(
            "SELECT username, joined FROM group_members WHERE groupname = ? AND bucket = ? AND username > ? LIMIT ?",
            "SELECT username, joined FROM group_members_generations "
                    + "WHERE groupname = ? AND generation = ? AND bucket = ? AND username > ? LIMIT ?");
    private static final Generational ALL_MEMBERS = Generational.idempotent(
            "SELECT username, joined FROM group_members WHERE groupname = ? AND bucket = ?",
            "SELECT username, joined FROM group_members_generations "
                    + "WHERE groupname = ? AND generation = ? AND bucket = ?");
    private static final Generational JOINERS = Generational.idempotent(
            "SELECT joined, username FROM group_join_dates WHERE groupname = ? AND join_day = ? LIMIT ?",
            "SELECT joined, username FROM group_join_dates_generations "
                    + "WHERE groupname = ? AND generation = ? AND join_day = ? LIMIT ?");
    private static final Generational JOINERS_BEFORE = Generational.idempotent(
            "SELECT joined, username FROM group_join_dates WHERE groupname = ? AND join_day = ? AND joined < ? LIMIT ?",
            "SELECT joined, username FROM group_join_dates_generations "
                    + "WHERE groupname = ? AND generation = ? AND join_day = ? AND joined < ? LIMIT ?");
    private static final Generational DROP_MEMBERS = Generational.idempotent(
            "DELETE FROM group_members WHERE groupname = ? AND bucket = ?",
            "DELETE FROM group_members_generations WHERE groupname = ? AND generation = ? AND bucket = ?");
    private static final Generational DROP_JOINERS = Generational.idempotent(
            "DELETE FROM group_join_dates WHERE groupname = ? AND join_day = ?",
            "DELETE FROM group_join_dates_generations WHERE groupname = ? AND generation = ? AND join_day = ?");

    @Inject
    Cql cql;

    @Inject
    Groups groups;

    @Inject
    PartitionGenerations generations;

    /** The generation a read of the group's lists reads now. */
    Uni<Integer> generation(String group) {
        return generations.current(this, group);
    }

    /**
     * Lists the member in both lists (a join, or its retry), USING TIMESTAMP {@code claimed}: the write time
     * of the membership's claim (a Paxos ballot's), so a leave can order its deletes after them and before
     * any later join's whatever the replicas' clocks.
     */
    Uni<Void> add(String group, int bucket, String username, UUID joined, long claimed) {
        int day = joinDay(joined);
        return generations.change(
                this,
                group,
                false,
                g -> Uni.join()
                        .all(
                                INSERT_MEMBER.write(cql, g, group, bucket, username, joined, claimed),
                                INSERT_JOINER.write(cql, g, group, day, joined, username, claimed))
                        .andFailFast());
    }

    /**
     * Takes the member off both lists (a leave, or its retry) just after the claim of the membership they
     * stand for ({@link #removedAt}).
     */
    Uni<Void> remove(String group, int bucket, String username, UUID joined, long claimed) {
        int day = joinDay(joined);
        return generations.change(
                this,
                group,
                true,
                g -> Uni.combine()
                        .all()
                        .unis(
                                MEMBER_WRITTEN.read(cql, g, group, bucket, username),
                                JOINER_WRITTEN.read(cql, g, group, day, joined))
                        .with((member, joiner) -> removedAt(claimed, written(member), written(joiner)))
                        .chain(at -> Uni.join()
                                .all(
                                        DELETE_MEMBER.write(cql, g, at, group, bucket, username),
                                        DELETE_JOINER.write(cql, g, at, group, day, joined))
                                .andFailFast()));
    }

    /**
     * The timestamp of a leave's deletes: just after the claim, which a join's list rows carry, so the
     * deletes are newer than the join and older than any later join (a later claim's ballot is greater),
     * whatever the replicas' clocks. List rows written later than the claim (on a joining replica's clock)
     * are deleted just after the later of the two.
     */
    static long removedAt(long claimed, Long memberWritten, Long joinerWritten) {
        long newest = claimed;
        for (Long written : new Long[] {memberWritten, joinerWritten}) {
            if (written != null && written > newest) {
                newest = written;
            }
        }
        return newest + 1;
    }

    /** The write time a {@code writetime(...)} read answered; null when the row is not there. */
    private static Long written(AsyncResultSet rs) {
        Row row = rs.one();
        return row == null || row.isNull(0) ? null : row.getLong(0);
    }

    /** Up to {@code limit} members of one bucket after {@code after}, in username order. */
    Uni<AsyncResultSet> members(String group, int generation, int bucket, String after, int limit) {
        return MEMBERS.read(cql, generation, group, bucket, after, limit);
    }

    /** Up to {@code limit} joiners of one day, newest first, before {@code before} (null: from the newest). */
    Uni<AsyncResultSet> joiners(String group, int generation, int day, UUID before, int limit) {
        return before == null
                ? JOINERS.read(cql, generation, group, day, limit)
                : JOINERS_BEFORE.read(cql, generation, group, day, before, limit);
    }

    static int joinDay(UUID joined) {
        return Groups.JOINS.granularity().key(TimeUuids.instant(joined));
    }

    @Override
    public String name() {
        return "group_members";
    }

    @Override
    public Uni<Long> copy(String group, int from, int to) {
        return eachBucket(
                group,
                bucket -> PartitionGenerations.forEachRow(paging -> allMembers(group, from, bucket, paging), row -> {
                    UUID joined = row.getUuid("joined");
                    String username = row.getString("username");
                    return Uni.join()
                            .all(
                                    INSERT_MEMBER.write(cql, to, group, bucket, username, joined, COPIED),
                                    INSERT_JOINER.write(cql, to, group, joinDay(joined), joined, username, COPIED))
                            .andFailFast();
                }));
    }

    /**
     * Drops the generation's buckets, and the join days of the members they list: a day whose joiners have
     * all left keeps its tombstones in a partition no read visits any more.
     */
    @Override
    public Uni<Void> drop(String group, int generation) {
        return eachBucket(group, bucket -> {
                    Set<Integer> days = ConcurrentHashMap.newKeySet();
                    return PartitionGenerations.forEachRow(
                                    paging -> allMembers(group, generation, bucket, paging),
                                    row -> Uni.createFrom().item(days.add(joinDay(row.getUuid("joined")))))
                            .chain(() -> {
                                List<Uni<Void>> drops = new ArrayList<>();
                                days.forEach(day -> drops.add(DROP_JOINERS
                                        .write(cql, generation, group, day)
                                        .replaceWithVoid()));
                                drops.add(DROP_MEMBERS
                                        .write(cql, generation, group, bucket)
                                        .replaceWithVoid());
                                return Uni.join().all(drops).andFailFast().replaceWith(0L);
                            });
                })
                .replaceWithVoid();
    }

    private Uni<AsyncResultSet> allMembers(
            String group, int generation, int bucket, UnaryOperator<BoundStatementBuilder> paging) {
        return ALL_MEMBERS.read(cql, generation, paging, group, bucket);
    }

    /** Runs {@code action} for each bucket of the group, one after the other; answers the sum of what they answer. */
    private Uni<Long> eachBucket(String group, IntFunction<Uni<Long>> action) {
        return groups.buckets(group).chain(buckets -> {
            Uni<Long> done = Uni.createFrom().item(0L);
            for (int bucket : IntStream.range(0, buckets).toArray()) {
                done = done.chain(before -> action.apply(bucket).map(rows -> before + rows));
            }
            return done;
        });
    }
}
