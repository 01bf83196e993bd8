package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;

/**
 * How {@link CompareAndSet} sends a conditional write: as it is. The tests replace this bean with
 * one that makes a write's outcome unknown, or answered "not applied" after it committed, which a
 * node cannot be made to do on demand; the service carries no fault injection of its own.
 */
@ApplicationScoped
public class ConditionalWrites {

    /** The write on {@code table}, to be subscribed by the caller. */
    public Uni<AsyncResultSet> send(String table, Uni<AsyncResultSet> write) {
        return write;
    }
}
