package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.internal.core.cql.DefaultPrepareRequest;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Each {@link Query} prepared once, on first use, with its table qualified by the configured
 * keyspace; and what each prepared text reads, as its Query declared, since a bound statement
 * knows only its text.
 */
@ApplicationScoped
class PreparedStatements {
    private static final Pattern UNQUALIFIED_TABLE = Pattern.compile("(?i)\\b(FROM|INTO|UPDATE)\\s+(\\w+)\\b(?!\\.)");

    @Inject
    CassandraSession session;

    @Inject
    CassandraSettings settings;

    /** The CQL of every statement this process prepared (a function group prepares only its own). */
    private final Set<String> preparedCql = ConcurrentHashMap.newKeySet();
    /** The partitions each prepared text reads, as its Query declared. */
    private final Map<String, Integer> declaredReads = new ConcurrentHashMap<>();

    Set<String> preparedCql() {
        return Set.copyOf(preparedCql);
    }

    Uni<PreparedStatement> prepared(Query query) {
        PreparedStatement ready = query.ready;
        if (ready != null) {
            return Uni.createFrom().item(ready);
        }
        CompletionStage<PreparedStatement> ps = query.prepared;
        if (ps != null) {
            return CassandraSession.resume(ps);
        }
        return session.session().chain(s -> {
            CompletionStage<PreparedStatement> stage = query.prepared;
            if (stage == null) {
                String text = qualified(query.cql, session.keyspace());
                // Before preparing: an execution can follow only once the statement is prepared.
                declaredReads.put(text, query.reads);
                stage = prepare(s, text);
                query.prepared = stage;
                preparedCql.add(query.cql);
                // A failed prepare (node down) must not stick: the next call prepares again.
                stage.whenComplete((ok, failure) -> {
                    if (failure != null) {
                        query.prepared = null;
                    } else {
                        query.ready = ok;
                    }
                });
            }
            return CassandraSession.resume(stage);
        });
    }

    /**
     * The partitions a statement reads: its query's declared cost, found by its prepared text; a
     * batch's is the largest of its statements' (a conditional batch is on one partition).
     */
    int readsOf(Statement<?> statement) {
        if (statement instanceof BoundStatement bound) {
            return declaredReads.computeIfAbsent(bound.getPreparedStatement().getQuery(), Query::readsOf);
        }
        if (statement instanceof BatchStatement batch) {
            int reads = 0;
            for (var inner : batch) {
                reads = Math.max(reads, readsOf(inner));
            }
            return reads;
        }
        String cql = Cql.cqlOf(statement);
        return cql == null ? 0 : Query.readsOf(cql);
    }

    /**
     * Prepares {@code text} on one node and, while none has answered, on the next node of a new query
     * plan every cql-patterns.cassandra.prepare-hedge-delay, or at once when an attempt times out or
     * finds no node, at most prepare-attempts in all ({@link Hedged}): the first PreparedStatement
     * wins. Each attempt has the request timeout, so nodes that are slow but answer (a loaded
     * cluster) still prepare it, and one that never answers (cut off, not yet marked down) costs the
     * delay. Preparing twice is harmless: the same text gets the same id.
     */
    private CompletionStage<PreparedStatement> prepare(CqlSession session, String text) {
        return Hedged.first(
                () -> session.prepareAsync(new PrepareAttempt(text)),
                settings.prepareAttempts(),
                settings.prepareHedgeDelay(),
                failure -> failure instanceof DriverTimeoutException || failure instanceof AllNodesFailedException);
    }

    /**
     * One attempt to prepare a statement, a request equal only to itself. The driver keeps the future
     * of every prepare in flight under its request, equal by query text, and removes a failed one
     * only after completing it: an attempt made as the one before fails would be given that failed
     * future, and a hedged attempt the first one's, which a node that never answers holds for the
     * whole timeout. This class already makes concurrent callers share one prepare.
     */
    static final class PrepareAttempt extends DefaultPrepareRequest {
        PrepareAttempt(String query) {
            super(query);
        }

        @Override
        public boolean equals(Object other) {
            return other == this;
        }

        @Override
        public int hashCode() {
            return System.identityHashCode(this);
        }
    }

    /**
     * {@code cql} with the keyspace written before its table. Prepared statements must name it: one
     * prepared with a per-request keyspace is executed without one, so every node refuses it once
     * as unprepared (an ERROR in its log and a round trip to prepare it again).
     */
    static String qualified(String cql, CqlIdentifier keyspace) {
        return UNQUALIFIED_TABLE
                .matcher(cql)
                .replaceAll("$1 " + Matcher.quoteReplacement(keyspace.asCql(true)) + ".$2");
    }
}
