package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import dev.cqlpatterns.platform.errors.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jboss.logging.Logger;

/**
 * The one compare-and-set loop of the service: read the current state (through Paxos, at the
 * serial level, whenever the previous write lost), decide the change, write it conditionally
 * ({@code IF version = ?}, {@code IF NOT EXISTS}, ...), and on a lost race read again and decide
 * again; after {@code cql-patterns.cassandra.cas-attempts} lost races, 409.
 *
 * <p>A conditional write may end without an answer: CASWriteUnknownException ("CAS operation
 * result is unknown"), a write timeout of write type CAS, a read timeout at SERIAL/LOCAL_SERIAL or
 * a client-side timeout. It may or may not have committed, and a later Paxos round may still
 * commit it. A "not applied" answer is no proof either: a coordinator whose proposal was accepted
 * by some replicas and then lost a ballot to a concurrent proposal starts a new round, finishes its
 * own accepted proposal first, then evaluates the condition against it and answers "not applied"
 * with our own values; the driver's second coordinator ({@link Cql#conditional}) answers the same
 * way after the first one landed the write. So neither outcome is taken at its word: a read at the
 * serial level (which finishes any round in flight) tells whether the state that holds is the one
 * this write proposed, and the loop goes on as applied or as lost. Each caller says what "ours"
 * means by something unique to the request where the answer depends on who wrote (a sign-up's or
 * a join's timeuuid, an Idempotency-Key's sealed plan), else by the values it proposed (a version
 * and the state written): two proposals of the same values are then the same outcome.
 */
@ApplicationScoped
public class CompareAndSet {
    private static final Logger LOG = Logger.getLogger(CompareAndSet.class);

    @Inject
    CassandraSettings settings;

    @Inject
    ConditionalWrites writes;

    /** What one attempt gets to read with: its number, and the answer of the write that lost before it. */
    public record Attempt(int number, AsyncResultSet lost) {
        /** True on a retry: the read must see every acknowledged conditional write (a serial read). */
        public boolean retry() {
            return number > 1;
        }
    }

    /** What an attempt does with the state it read: answer at once, or write conditionally. */
    public static final class Step<R> {
        final Uni<R> done;
        final String table;
        final Uni<AsyncResultSet> write;
        final Supplier<Uni<Boolean>> ours;
        final Supplier<Uni<R>> applied;

        private Step(
                Uni<R> done,
                String table,
                Uni<AsyncResultSet> write,
                Supplier<Uni<Boolean>> ours,
                Supplier<Uni<R>> applied) {
            this.done = done;
            this.table = table;
            this.write = write;
            this.ours = ours;
            this.applied = applied;
        }

        /** Nothing to write: the answer (or a failure, such as 404 or 403). */
        public static <R> Step<R> done(Uni<R> answer) {
            return new Step<>(answer, null, null, null, null);
        }

        /**
         * A conditional write on {@code table}; {@code ours} reads at the serial level whether the state
         * that holds is the one this write proposed; {@code applied} follows once it is known to hold.
         */
        public static <R> Step<R> write(
                String table, Uni<AsyncResultSet> write, Supplier<Uni<Boolean>> ours, Supplier<Uni<R>> applied) {
            return new Step<>(null, table, write, ours, applied);
        }
    }

    /** The outcome of one conditional write: applied (or found to hold), and Cassandra's answer if any. */
    public record Outcome(boolean applied, AsyncResultSet answer) {}

    /**
     * Runs the loop: {@code read} the state for each attempt, {@code decide} what to do with it;
     * {@code exhausted} is the 409 given after too many lost races.
     */
    public <S, R> Uni<R> run(
            Function<Attempt, Uni<S>> read, Function<S, Step<R>> decide, Supplier<ProblemException> exhausted) {
        return run(read, decide, exhausted, 1);
    }

    /**
     * {@link #run} allowing {@code factor} times the configured attempts: for a write that every
     * request to one partition makes (a message's position), where a lost race means only that
     * another request landed first.
     */
    public <S, R> Uni<R> run(
            Function<Attempt, Uni<S>> read,
            Function<S, Step<R>> decide,
            Supplier<ProblemException> exhausted,
            int factor) {
        return attempt(new Attempt(1, null), read, decide, exhausted, settings.casAttempts() * factor);
    }

    private <S, R> Uni<R> attempt(
            Attempt attempt,
            Function<Attempt, Uni<S>> read,
            Function<S, Step<R>> decide,
            Supplier<ProblemException> exhausted,
            int attempts) {
        return read.apply(attempt).chain(state -> {
            Step<R> step = decide.apply(state);
            if (step.done != null) {
                return step.done;
            }
            return conditional(step.table, step.write, step.ours).chain(outcome -> {
                if (outcome.applied()) {
                    return step.applied.get();
                }
                if (attempt.number() >= attempts) {
                    return Uni.createFrom().failure(exhausted.get());
                }
                return attempt(new Attempt(attempt.number() + 1, outcome.answer()), read, decide, exhausted, attempts);
            });
        });
    }

    /**
     * One conditional write whose unknown outcome, or "not applied" answer, is settled by {@code
     * ours} (a serial read) instead of being taken at its word. A write found not to hold keeps
     * Cassandra's answer (the current values it sends back), when there was one.
     */
    public Uni<Outcome> conditional(String table, Uni<AsyncResultSet> write, Supplier<Uni<Boolean>> ours) {
        return writes.send(table, write)
                .chain(rs -> rs.wasApplied()
                        ? Uni.createFrom().item(new Outcome(true, rs))
                        // Perhaps our own proposal, finished by a later round before the condition was read.
                        : ours.get().map(held -> new Outcome(held, held ? null : rs)))
                .onFailure(CompareAndSet::unknownOutcome)
                .recoverWithUni(failure -> {
                    LOG.debugf(
                            "Conditional write on %s ended with an unknown outcome (%s); reading it back",
                            table, failure.getMessage());
                    return ours.get().map(held -> new Outcome(held, null));
                });
    }

    /**
     * True when a conditional write may or may not have committed: Cassandra or the driver gave up
     * waiting, after the write may have reached a replica.
     */
    public static boolean unknownOutcome(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof CASWriteUnknownException || t instanceof DriverTimeoutException) {
                return true;
            }
            if (t instanceof AllNodesFailedException all) {
                // Every coordinator tried failed (a retry on the next one, a speculative execution):
                // unknown when any of them may have committed. Their errors are not causes.
                return all.getAllErrors().values().stream()
                        .flatMap(List::stream)
                        .anyMatch(CompareAndSet::unknownOutcome);
            }
            if (t instanceof WriteTimeoutException timeout) {
                // On a conditional write every write timeout is uncertain: CAS (Paxos rounds) or the
                // commit (SIMPLE at the write's level) after the proposal was accepted.
                return timeout.getWriteType() == DefaultWriteType.CAS
                        || timeout.getWriteType() == DefaultWriteType.SIMPLE;
            }
            if (t instanceof ReadTimeoutException timeout) {
                return timeout.getConsistencyLevel().isSerial();
            }
        }
        return false;
    }
}
