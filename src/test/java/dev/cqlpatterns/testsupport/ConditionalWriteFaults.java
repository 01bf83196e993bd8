package dev.cqlpatterns.testsupport;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import dev.cqlpatterns.platform.cassandra.ConditionalWrites;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The conditional writes of every test service: sent as they are, unless a test asked for a fault
 * on a table. A single node answers every Paxos round; these are the answers a cluster gives when a
 * coordinator times out or finishes its own proposal in a later round.
 */
@Alternative
@Priority(1)
@ApplicationScoped
public class ConditionalWriteFaults extends ConditionalWrites {
    private final Map<String, Fault> faults = new ConcurrentHashMap<>();

    /**
     * The next {@code times} conditional writes on {@code table} end with CASWriteUnknownException,
     * after committing when {@code committed}, else without being sent.
     */
    public void injectUnknownOutcome(String table, boolean committed, int times) {
        faults.put(
                table,
                new Fault(
                        committed ? Fault.Kind.UNKNOWN_COMMITTED : Fault.Kind.UNKNOWN_NOT_SENT,
                        new AtomicInteger(times)));
    }

    /**
     * The next {@code times} conditional writes on {@code table} commit and answer "not applied" with
     * their own values, as Cassandra does when a coordinator finishes its own accepted proposal in a
     * later round: the write is sent twice, and the second run's answer is returned.
     */
    public void injectOwnWriteNotApplied(String table, int times) {
        faults.put(table, new Fault(Fault.Kind.COMMITTED_NOT_APPLIED, new AtomicInteger(times)));
    }

    /**
     * The next conditional write on {@code table} commits, then ends with an unknown outcome when
     * {@code unknown}, else answers "not applied" with its own values: either way only a read
     * tells that it is the caller's own.
     */
    public void injectCommittedUntold(String table, boolean unknown) {
        if (unknown) {
            injectUnknownOutcome(table, true, 1);
        } else {
            injectOwnWriteNotApplied(table, 1);
        }
    }

    /** Whether every fault asked for on {@code table} has happened: a test's proof that it tested the fault. */
    public boolean delivered(String table) {
        Fault fault = faults.get(table);
        return fault != null && fault.remaining().get() <= 0;
    }

    /** Removes every fault asked for. */
    public void clearFaults() {
        faults.clear();
    }

    @Override
    public Uni<AsyncResultSet> send(String table, Uni<AsyncResultSet> write) {
        Fault fault = faults.isEmpty() ? null : faults.get(table);
        if (fault == null || fault.remaining().getAndDecrement() <= 0) {
            return write;
        }
        Uni<AsyncResultSet> unknown = Uni.createFrom()
                .failure(() -> new CASWriteUnknownException(null, DefaultConsistencyLevel.LOCAL_SERIAL, 0, 1));
        return switch (fault.kind()) {
            case UNKNOWN_NOT_SENT -> unknown;
            case UNKNOWN_COMMITTED -> write.chain(rs -> unknown);
            case COMMITTED_NOT_APPLIED -> write.chain(rs -> write);
        };
    }

    private record Fault(Kind kind, AtomicInteger remaining) {
        enum Kind {
            UNKNOWN_NOT_SENT,
            UNKNOWN_COMMITTED,
            COMMITTED_NOT_APPLIED
        }
    }
}
