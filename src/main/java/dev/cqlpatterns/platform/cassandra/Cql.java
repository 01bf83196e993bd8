package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.internal.core.cql.DefaultPrepareRequest;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.accounting.QueryStats;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The one way features talk to Cassandra: prepared statements only, non-blocking, each statement
 * counted for the request's {@code X-Statements} / {@code X-Partitions-Read}.
 *
 * <p>Results are handed back on the caller's Vert.x context (the driver completes its futures on
 * its own I/O threads), so a handler's next step runs where it started and never blocks.
 *
 * <p>The session is only ever used through its future ({@code CompletionStage<QuarkusCqlSession>}),
 * never through the blocking {@code QuarkusCqlSession} bean: the driver connects on Quarkus's event
 * loop, so a thread that blocked on the session while it is being built could be the very thread
 * it needs (a scheduled tick on an event loop did exactly that). Connecting starts at start-up
 * without waiting for it; whatever comes earlier waits without blocking, at most
 * {@code cql-patterns.cassandra.session-wait}, then answers 503 with Retry-After.
 *
 * <p>Every statement is one OpenTelemetry client span ({@link StatementSpans}), a child of the
 * request's span. Made here rather than by the driver instrumentation
 * (opentelemetry-cassandra-4.4): that library wraps a {@code CqlSession} in its own
 * {@code TracingCqlSession}, which is not the extension's {@code QuarkusCqlSession} bean this class
 * and the mapper DAOs use, and it has no request tracker to plug into the driver's configuration;
 * every statement passes {@link #call} anyway, which also knows what the statement reads.
 */
@ApplicationScoped
public class Cql {
    private static final Logger LOG = Logger.getLogger(Cql.class);

    @Inject
    CompletionStage<QuarkusCqlSession> sessionStage;

    @Inject
    CassandraSettings settings;

    /** The level of conditional writes; a read that must see their outcome uses it too. */
    @ConfigProperty(name = "quarkus.cassandra.request.serial-consistency-level", defaultValue = "LOCAL_SERIAL")
    DefaultConsistencyLevel serial;

    @Inject
    StatementSpans spans;

    @Inject
    RefusedReads refusedReads;

    private static final Pattern UNQUALIFIED_TABLE = Pattern.compile("(?i)\\b(FROM|INTO|UPDATE)\\s+(\\w+)\\b(?!\\.)");

    private volatile CqlIdentifier keyspace;
    /** The connected session, once there is one: the fast path of every statement. */
    private volatile QuarkusCqlSession connected;
    /** The CQL of every statement this process prepared (a function group prepares only its own). */
    private final Set<String> preparedCql = ConcurrentHashMap.newKeySet();
    /** The partitions each prepared text reads, as its Query declared: a bound statement knows only its text. */
    private final Map<String, Integer> declaredReads = new ConcurrentHashMap<>();

    /** Starts connecting while the rest of start-up goes on; nothing waits for it here. */
    void connectEarly(@Observes StartupEvent event) {
        sessionStage.thenAccept(session -> connected = session);
    }

    /**
     * A read at the serial consistency level, one that must see every acknowledged conditional
     * write. It is a Paxos round of its own, so it runs in the profile of {@link #conditional}
     * writes: a second coordinator started as early as a plain read's (100 ms) would contend with
     * the first for the same partition, and each round that loses starts again until Cassandra's
     * CAS timeout, while a replica is paused or slow exactly when both are still running.
     */
    public UnaryOperator<BoundStatementBuilder> serially() {
        return b -> b.setConsistencyLevel(serial).setExecutionProfileName(CONDITIONAL_PROFILE);
    }

    /** A statement that is not safe to retry on its own (counters, LWT, appends). */
    public static Query query(String cql) {
        return new Query(cql, false, null);
    }

    /** A statement that may be retried and speculatively executed: same effect if run twice. */
    public static Query idempotent(String cql) {
        return new Query(cql, true, null);
    }

    /**
     * A conditional write (LWT) whose caller tells its own outcome from a "not applied" answer:
     * through {@link CompareAndSet} (a serial read of what it proposed) or by the values Cassandra
     * sends back. Sent twice, the second run finds the first one's row and is not applied, which
     * the caller takes as applied; so it may go to a second coordinator when the first one is
     * paused (a SIGSTOPped node held every LWT it coordinated for the whole timeout). It
     * runs in the driver profile {@value #CONDITIONAL_PROFILE} (application.conf), whose
     * speculative delay is longer than a Paxos round's usual time, so two coordinators seldom
     * contend for one partition.
     */
    public static Query conditional(String cql) {
        return new Query(cql, true, CONDITIONAL_PROFILE);
    }

    /** The driver execution profile of {@link #conditional} statements (and of the mapper's, by annotation). */
    public static final String CONDITIONAL_PROFILE = "conditional";

    /** The session, on the caller's context; 503 (a driver timeout) if it is not connected in time. */
    public Uni<QuarkusCqlSession> session() {
        QuarkusCqlSession session = connected;
        if (session != null) {
            return Uni.createFrom().item(session);
        }
        Duration wait = settings.sessionWait();
        return resume(sessionStage)
                .ifNoItem()
                .after(wait)
                .failWith(() ->
                        new DriverTimeoutException("No connection to Cassandra within " + wait + " of the request"))
                .invoke(s -> connected = s);
    }

    /** True once the session is connected (it may still lose nodes later). */
    public boolean connected() {
        return connected != null;
    }

    /** The CQL of the statements prepared so far by this process. */
    public Set<String> preparedCql() {
        return Set.copyOf(preparedCql);
    }

    public CqlIdentifier keyspace() {
        CqlIdentifier ks = keyspace;
        if (ks == null) {
            ks = CqlIdentifier.fromInternal(settings.keyspace());
            keyspace = ks;
        }
        return ks;
    }

    /** Binds values to a query, preparing it on first use. */
    public Uni<BoundStatement> bind(Query query, Object... values) {
        return prepared(query).map(ps -> {
            BoundStatementBuilder builder = ps.boundStatementBuilder(values).setIdempotence(query.idempotent);
            return (query.profile == null ? builder : builder.setExecutionProfileName(query.profile)).build();
        });
    }

    /** Runs a read. Reads are always idempotent. */
    public Uni<AsyncResultSet> read(Query query, Object... values) {
        return read(query, UnaryOperator.identity(), values);
    }

    /** A read whose statement is adjusted first, e.g. page size and paging state. */
    public Uni<AsyncResultSet> read(Query query, UnaryOperator<BoundStatementBuilder> adjust, Object... values) {
        return prepared(query)
                .chain(ps -> execute(
                        adjust.apply(ps.boundStatementBuilder(values).setIdempotence(true))
                                .build(),
                        query.reads));
    }

    /** Runs a write; a conditional one reads the partition it writes (see {@link Query#readsOf}). */
    public Uni<AsyncResultSet> write(Query query, Object... values) {
        return bind(query, values).chain(stmt -> execute(stmt, query.reads));
    }

    /**
     * Writes of one partition as one unlogged batch: one mutation, applied whole on each replica.
     * Every statement must be idempotent.
     */
    public Uni<AsyncResultSet> onePartition(List<Uni<BoundStatement>> writes) {
        return Uni.join()
                .all(writes)
                .andFailFast()
                .chain(statements -> execute(
                        BatchStatement.newInstance(DefaultBatchType.UNLOGGED, statements.toArray(BoundStatement[]::new))
                                .setIdempotent(true)));
    }

    /** Runs a statement bound here (or a batch of them), counted as its queries declared. */
    public Uni<AsyncResultSet> execute(Statement<?> statement) {
        return execute(statement, readsOf(statement));
    }

    private Uni<AsyncResultSet> execute(Statement<?> statement, int partitions) {
        return session()
                .chain(session -> call(
                        cqlOf(statement), statement.isIdempotent(), partitions, () -> session.executeAsync(statement)));
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
        String cql = cqlOf(statement);
        return cql == null ? 0 : Query.readsOf(cql);
    }

    /**
     * Runs a driver call that returns a future and reads {@code partitions} partitions: a mapper DAO
     * method or the next page of a read, whose statement text is not at hand here.
     */
    public <T> Uni<T> call(int partitions, Supplier<CompletionStage<T>> call) {
        return call(null, null, partitions, call);
    }

    /**
     * Runs a driver call as one traced statement: {@code cql} (prepared text, null when the caller
     * does not know it) names the span.
     */
    public <T> Uni<T> call(String cql, Boolean idempotent, int partitions, Supplier<CompletionStage<T>> call) {
        return Uni.createFrom().deferred(() -> {
            QueryStats.record(partitions);
            Span span = spans.start(cql, idempotent, partitions, keyspace().asInternal());
            CompletionStage<T> stage;
            try (Scope ignored = span.getSpanContext().isValid() ? span.makeCurrent() : Scope.noop()) {
                stage = call.get();
            } catch (RuntimeException e) {
                StatementSpans.end(span, e);
                throw e;
            }
            stage.whenComplete((result, failure) -> {
                StatementSpans.end(span, failure);
                if (failure != null) {
                    refusedReads.record(cql, failure);
                    timedOut(cql, failure);
                }
            });
            return onCallersContext(Uni.createFrom().completionStage(stage));
        });
    }

    /**
     * A statement the driver gave up on names itself in the log: Problems answers 503 with the
     * driver's message only, which says neither what waited nor how many coordinators were tried.
     */
    private static void timedOut(String cql, Throwable failure) {
        if (failure instanceof DriverTimeoutException timeout) {
            var info = timeout.getExecutionInfo();
            LOG.warnf(
                    "Timed out after %d speculative executions (errors before: %s): %s",
                    info == null ? -1 : info.getSpeculativeExecutionCount(),
                    info == null ? List.of() : info.getErrors(),
                    cql);
        }
    }

    /** The CQL of a statement without its values: prepared text, or each one of a batch. */
    static String cqlOf(Statement<?> statement) {
        if (statement instanceof BoundStatement bound) {
            return bound.getPreparedStatement().getQuery();
        }
        if (statement instanceof SimpleStatement simple) {
            return simple.getQuery();
        }
        if (statement instanceof BatchStatement batch) {
            // Each distinct statement once: a batch of 500 alike rows stays one line.
            java.util.Set<String> distinct = new java.util.LinkedHashSet<>();
            batch.forEach(inner -> distinct.add(cqlOf(inner)));
            return "BEGIN " + batch.getBatchType() + " BATCH " + String.join("; ", distinct) + "; APPLY BATCH";
        }
        return null;
    }

    /**
     * A future that many callers share (the session, a prepared statement) as a Uni that completes
     * on the caller's Vert.x context. Each caller gets its own dependent stage: a caller that gives
     * up (a timeout cancels upstream) must not cancel the shared future for everyone.
     */
    public static <T> Uni<T> resume(CompletionStage<T> shared) {
        return onCallersContext(Uni.createFrom().completionStage(() -> shared.thenApply(Function.identity())));
    }

    /** The rows of the page at hand; enough whenever the query's LIMIT is below the page size. */
    public static List<Row> rows(AsyncResultSet rs) {
        List<Row> rows = new ArrayList<>(rs.remaining());
        rs.currentPage().forEach(rows::add);
        return rows;
    }

    private Uni<PreparedStatement> prepared(Query query) {
        PreparedStatement ready = query.ready;
        if (ready != null) {
            return Uni.createFrom().item(ready);
        }
        CompletionStage<PreparedStatement> ps = query.prepared;
        if (ps != null) {
            return resume(ps);
        }
        return session().chain(session -> {
            CompletionStage<PreparedStatement> stage = query.prepared;
            if (stage == null) {
                String text = qualified(query.cql, keyspace());
                // Before preparing: an execution can follow only once the statement is prepared.
                declaredReads.put(text, query.reads);
                stage = prepare(session, text);
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
            return resume(stage);
        });
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

    private static <T> Uni<T> onCallersContext(Uni<T> uni) {
        Context context = Vertx.currentContext();
        return context == null ? uni : uni.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }
}
