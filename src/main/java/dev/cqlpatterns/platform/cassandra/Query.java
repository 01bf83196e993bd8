package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.util.concurrent.CompletionStage;
import java.util.regex.Pattern;

/**
 * A CQL statement a function runs, prepared once on first use and reused after that. Declared as
 * a field of the function that owns it, so the CQL sits next to the code that runs it, with what it
 * costs: the partitions it reads, counted in {@code X-Partitions-Read} each time it runs.
 */
public final class Query {
    private static final Pattern CONDITION = Pattern.compile("(?i)\\sIF\\s");

    final String cql;
    final boolean idempotent;
    /** The driver execution profile it runs in; null for the default one. */
    final String profile;
    /** Partitions one execution reads; derived from the text unless declared by {@link #reads(int)}. */
    final int reads;

    volatile CompletionStage<PreparedStatement> prepared;
    /** The prepared statement once preparing succeeded: the fast path, no future per execution. */
    volatile PreparedStatement ready;

    Query(String cql, boolean idempotent, String profile) {
        this(cql, idempotent, profile, readsOf(cql));
    }

    private Query(String cql, boolean idempotent, String profile, int reads) {
        this.cql = cql;
        this.idempotent = idempotent;
        this.profile = profile;
        this.reads = reads;
    }

    /** This statement, reading {@code partitions} partitions whatever its text says. */
    public Query reads(int partitions) {
        return new Query(cql, idempotent, profile, partitions);
    }

    /**
     * What a statement reads by its text: a SELECT one partition (the service has no multi-partition
     * read but the declared ones); a conditional write ({@code IF ...}) one too, since its Paxos round
     * reads the partition it writes; a plain write none. A batch's text holds its statements: it
     * reads one partition when one of them is conditional (they must then share it), else none.
     */
    static int readsOf(String cql) {
        String operation = StatementSpans.operationOf(cql);
        return "SELECT".equals(operation) || CONDITION.matcher(cql).find() ? 1 : 0;
    }

    public String cql() {
        return cql;
    }

    @Override
    public String toString() {
        return cql;
    }
}
