package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.concurrent.CompletionStage;

/**
 * A CQL statement a function runs, prepared once on first use and reused after that. Declared as
 * a field of the function that owns it, so the CQL sits next to the code that runs it.
 */
public final class Query {
    final String cql;
    final boolean idempotent;
    volatile CompletionStage<PreparedStatement> prepared;
    /** The prepared statement once preparing succeeded: the fast path, no future per execution. */
    volatile PreparedStatement ready;

    Query(String cql, boolean idempotent) {
        this.cql = cql;
        this.idempotent = idempotent;
    }

    public String cql() {
        return cql;
    }

    @Override
    public String toString() {
        return cql;
    }
}
