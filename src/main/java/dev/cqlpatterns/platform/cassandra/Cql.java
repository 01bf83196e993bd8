package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.accounting.QueryStats;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.context.Scope;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.logging.Logger;

/**
 * The one way features talk to Cassandra: prepared statements only, non-blocking, each statement
 * counted for the request's {@code X-Statements} / {@code X-Partitions-Read}.
 *
 * <p>The session is reached without blocking and results come back on the caller's Vert.x context
 * ({@link CassandraSession}); each {@link Query} is prepared once ({@link PreparedStatements}).
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
    CassandraSession session;

    @Inject
    PreparedStatements prepared;

    /** The level of conditional writes; a read that must see their outcome uses it too. */
    @ConfigProperty(name = "quarkus.cassandra.request.serial-consistency-level", defaultValue = "LOCAL_SERIAL")
    DefaultConsistencyLevel serial;

    @Inject
    StatementSpans spans;

    @Inject
    RefusedReads refusedReads;

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
        return session.session();
    }

    /** True once the session is connected (it may still lose nodes later). */
    public boolean connected() {
        return session.connected();
    }

    /** The CQL of the statements prepared so far by this process. */
    public Set<String> preparedCql() {
        return prepared.preparedCql();
    }

    public CqlIdentifier keyspace() {
        return session.keyspace();
    }

    /** Binds values to a query, preparing it on first use. */
    public Uni<BoundStatement> bind(Query query, Object... values) {
        return prepared.prepared(query).map(ps -> {
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
        return prepared.prepared(query)
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
        return execute(statement, prepared.readsOf(statement));
    }

    private Uni<AsyncResultSet> execute(Statement<?> statement, int partitions) {
        return session.session()
                .chain(s ->
                        call(cqlOf(statement), statement.isIdempotent(), partitions, () -> s.executeAsync(statement)));
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
            return CassandraSession.onCallersContext(Uni.createFrom().completionStage(stage));
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
            Set<String> distinct = new LinkedHashSet<>();
            batch.forEach(inner -> distinct.add(cqlOf(inner)));
            return "BEGIN " + batch.getBatchType() + " BATCH " + String.join("; ", distinct) + "; APPLY BATCH";
        }
        return null;
    }

    /** A future that many callers share, as a Uni on the caller's context ({@link CassandraSession#resume}). */
    public static <T> Uni<T> resume(CompletionStage<T> shared) {
        return CassandraSession.resume(shared);
    }

    /** The rows of the page at hand; enough whenever the query's LIMIT is below the page size. */
    public static List<Row> rows(AsyncResultSet rs) {
        List<Row> rows = new ArrayList<>(rs.remaining());
        rs.currentPage().forEach(rows::add);
        return rows;
    }
}
