package dev.cqlpatterns.platform.generations;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import io.smallrye.mutiny.Uni;
import io.smallrye.mutiny.infrastructure.Infrastructure;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.function.IntFunction;
import java.util.function.UnaryOperator;
import org.jboss.logging.Logger;

/**
 * Keeps a set's partition below a constant number of tombstones by moving it to a new generation
 * once it has collected enough removals for its size ({@link GenerationSettings}): the protocol of
 * the tables partition_generations and partition_removals (docs/tables.md), for every
 * {@link GenerationalSet}. Readers ask {@link #current}; every change goes through {@link #change},
 * which may start a move in the background.
 */
@ApplicationScoped
public class PartitionGenerations {
    private static final Logger LOG = Logger.getLogger(PartitionGenerations.class);
    /** Rows read per page of a move. */
    private static final int COPY_PAGE = 200;
    /** Reads of the state one change makes at most: each new one means a move started meanwhile. */
    private static final int ROUNDS = 4;

    private static final Query STATE = Cql.idempotent(
            "SELECT current, next, moving_since, live FROM partition_generations WHERE set_name = ? AND set_key = ?");
    private static final Query FIRST_CLAIM = Cql.conditional("INSERT INTO partition_generations "
            + "(set_name, set_key, current, next, moving_since) VALUES (?, ?, 0, 1, ?) IF NOT EXISTS");
    private static final Query CLAIM = Cql.conditional("UPDATE partition_generations SET next = ?, moving_since = ? "
            + "WHERE set_name = ? AND set_key = ? IF current = ? AND next = null AND moving_since = null");
    private static final Query TAKE_OVER = Cql.conditional("UPDATE partition_generations SET moving_since = ? "
            + "WHERE set_name = ? AND set_key = ? IF current = ? AND next = ? AND moving_since = ?");
    private static final Query FLIP = Cql.conditional("UPDATE partition_generations SET current = ?, next = null, "
            + "moving_since = null, live = ? WHERE set_name = ? AND set_key = ? IF current = ? AND next = ?");
    private static final Query COUNT = Cql.query(
            "UPDATE partition_removals SET removals = removals + 1 WHERE set_name = ? AND set_key = ? AND generation = ?");
    /**
     * The longest a removal waits for its count: a counter update is not idempotent, so it is never
     * retried or sent to a second coordinator, and one held by a dead replica would otherwise hold the
     * removal for the whole request timeout. A count is a hint (the next removal counts too).
     */
    private static final Duration COUNT_WAIT = Duration.ofSeconds(2);

    private static final Query REMOVALS = Cql.idempotent(
            "SELECT removals FROM partition_removals WHERE set_name = ? AND set_key = ? AND generation = ?");
    private static final Query FORGET =
            Cql.idempotent("DELETE FROM partition_removals WHERE set_name = ? AND set_key = ? AND generation = ?");

    @Inject
    Cql cql;

    @Inject
    GenerationSettings settings;

    @Inject
    Clock clock;

    /**
     * A set partition's generations: the one read, the one a running move fills (or null), and the rows
     * the move to {@code current} copied (null: not known, as for generation 0).
     */
    record State(int current, Integer next, Instant movingSince, Integer live) {
        static final State NEVER_MOVED = new State(0, null, null, null);

        Set<Integer> written() {
            return next == null ? Set.of(current) : Set.of(current, next);
        }
    }

    /** The generation readers of the set's partition read now: one partition read. */
    public <K> Uni<Integer> current(GenerationalSet<K> set, K key) {
        return state(set, key).map(State::current);
    }

    /**
     * Applies one change of a member ({@code write}: its insert, update or deletion for a given
     * generation, idempotent) to every generation of the partition that readers read or a move fills,
     * until a read of the state shows no generation it has not reached. A {@code removal} is counted in
     * each generation it reached, and the count may start a move.
     */
    public <K> Uni<Void> change(GenerationalSet<K> set, K key, boolean removal, IntFunction<Uni<?>> write) {
        return reach(set, key, removal, write, new TreeSet<>(), 1);
    }

    private <K> Uni<Void> reach(
            GenerationalSet<K> set,
            K key,
            boolean removal,
            IntFunction<Uni<?>> write,
            Set<Integer> reached,
            int round) {
        return state(set, key).chain(state -> {
            List<Integer> missing = state.written().stream()
                    .filter(g -> !reached.contains(g))
                    .sorted()
                    .toList();
            if (missing.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            if (round > ROUNDS) {
                // Answered 503 with Retry-After, as a timeout: the change is idempotent and a retry finishes it.
                return Uni.createFrom()
                        .failure(new DriverTimeoutException("The set " + set.name() + " " + set.key(key)
                                + " moved to a new generation " + ROUNDS + " times during one change"));
            }
            List<Uni<Void>> writes = new ArrayList<>();
            for (int generation : missing) {
                Uni<Void> written = write.apply(generation).replaceWithVoid();
                writes.add(
                        removal
                                ? written.chain(
                                        () -> count(set, key, generation, settings.removalsBefore(state.live())))
                                : written);
            }
            reached.addAll(missing);
            return Uni.join()
                    .all(writes)
                    .andFailFast()
                    .chain(() -> reach(set, key, removal, write, reached, round + 1));
        });
    }

    private <K> Uni<State> state(GenerationalSet<K> set, K key) {
        return cql.read(STATE, set.name(), set.key(key)).map(rs -> {
            Row row = rs.one();
            return row == null ? State.NEVER_MOVED : state(row);
        });
    }

    private static State state(Row row) {
        return new State(
                row.getInt("current"),
                row.isNull("next") ? null : row.getInt("next"),
                row.getInstant("moving_since"),
                row.isNull("live") ? null : row.getInt("live"));
    }

    /**
     * Counts one removal in {@code generation}, and starts its move once it holds {@code moveAt} of them.
     * A count that fails is logged, not answered: the removal itself is done, and the next one counts.
     */
    private <K> Uni<Void> count(GenerationalSet<K> set, K key, int generation, int moveAt) {
        return cql.bind(COUNT, set.name(), set.key(key), generation)
                .chain(count -> cql.execute(count.setTimeout(COUNT_WAIT)))
                .chain(() -> cql.read(REMOVALS, set.name(), set.key(key), generation))
                .invoke(rs -> {
                    Row row = rs.one();
                    if (settings.moves() && row != null && row.getLong("removals") >= moveAt) {
                        move(set, key, generation)
                                .runSubscriptionOn(Infrastructure.getDefaultExecutor())
                                .subscribe()
                                .with(
                                        moved -> {},
                                        failure -> LOG.warnf(
                                                failure,
                                                "Moving %s %s past generation %d stopped; the next removal or "
                                                        + "a later move finishes it",
                                                set.name(),
                                                set.key(key),
                                                generation));
                    }
                })
                .replaceWithVoid()
                .onFailure()
                .recoverWithUni(failure -> {
                    LOG.warnf("A removal from %s %s was not counted: %s", set.name(), set.key(key), failure.toString());
                    return Uni.createFrom().voidItem();
                });
    }

    /**
     * Moves {@code generation} of the set's partition to the next one: claim, copy, flip, and drop
     * the old partition after the drop delay. Nothing happens when another process holds a fresh
     * claim or the generation has moved already.
     */
    <K> Uni<Void> move(GenerationalSet<K> set, K key, int generation) {
        return claim(set, key, generation).chain(claimed -> {
            if (!claimed) {
                return Uni.createFrom().voidItem();
            }
            int next = generation + 1;
            return set.copy(key, generation, next)
                    .chain(live -> cql.write(
                            FLIP,
                            next,
                            (int) Math.min(live, Integer.MAX_VALUE),
                            set.name(),
                            set.key(key),
                            generation,
                            next))
                    .chain(rs -> {
                        boolean flipped =
                                rs.wasApplied() || Objects.equals(rs.one().getObject("current"), next);
                        if (!flipped) {
                            return Uni.createFrom().voidItem();
                        }
                        LOG.infof("Moved %s %s to generation %d", set.name(), set.key(key), next);
                        return Uni.createFrom()
                                .voidItem()
                                .onItem()
                                .delayIt()
                                .by(settings.dropDelay())
                                .chain(() -> set.drop(key, generation))
                                .chain(() -> cql.write(FORGET, set.name(), set.key(key), generation))
                                .replaceWithVoid();
                    });
        });
    }

    /** Claims the move of {@code generation}, or takes over a stale claim; true when this process holds it. */
    private <K> Uni<Boolean> claim(GenerationalSet<K> set, K key, int generation) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        int next = generation + 1;
        return cql.read(STATE, cql.serially(), set.name(), set.key(key)).chain(rs -> {
            Row row = rs.one();
            State state = row == null ? State.NEVER_MOVED : state(row);
            if (state.current() != generation) {
                return Uni.createFrom().item(false);
            }
            Uni<AsyncResultSet> write;
            if (row == null) {
                write = cql.write(FIRST_CLAIM, set.name(), set.key(key), now);
            } else if (state.next() == null) {
                write = cql.write(CLAIM, next, now, set.name(), set.key(key), generation);
            } else if (state.movingSince() != null && state.movingSince().isBefore(now.minus(settings.staleMove()))) {
                write = cql.write(TAKE_OVER, now, set.name(), set.key(key), generation, next, state.movingSince());
            } else {
                return Uni.createFrom().item(false);
            }
            // Not applied: ours all the same when the row holds our claim (the same write, sent twice).
            return write.map(answer -> answer.wasApplied() || ours(answer.one(), next, now));
        });
    }

    private static boolean ours(Row answer, int next, Instant claimed) {
        return answer != null
                && !answer.isNull("next")
                && answer.getInt("next") == next
                && claimed.equals(answer.getInstant("moving_since"));
    }

    /**
     * Runs {@code action} on every row {@code read} returns, a page at a time, each page's actions at once;
     * answers the number of rows.
     */
    public static Uni<Long> forEachRow(
            Function<UnaryOperator<BoundStatementBuilder>, Uni<AsyncResultSet>> read, Function<Row, Uni<?>> action) {
        return forEachRow(read, action, null, 0);
    }

    private static Uni<Long> forEachRow(
            Function<UnaryOperator<BoundStatementBuilder>, Uni<AsyncResultSet>> read,
            Function<Row, Uni<?>> action,
            ByteBuffer page,
            long before) {
        return read.apply(b -> b.setPageSize(COPY_PAGE).setPagingState(page)).chain(rs -> {
            List<Uni<Void>> done = new ArrayList<>();
            for (Row row : rs.currentPage()) {
                done.add(action.apply(row).replaceWithVoid());
            }
            long rows = before + done.size();
            Uni<Long> all = done.isEmpty()
                    ? Uni.createFrom().item(rows)
                    : Uni.join().all(done).andFailFast().replaceWith(rows);
            ByteBuffer more = rs.hasMorePages() ? rs.getExecutionInfo().getPagingState() : null;
            return more == null ? all : all.chain(() -> forEachRow(read, action, more, rows));
        });
    }
}
