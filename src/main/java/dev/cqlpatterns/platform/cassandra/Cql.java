package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.accounting.QueryStats;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The one way features talk to Cassandra: prepared statements only, non-blocking, each statement
 * counted for the request's {@code X-Statements} / {@code X-Partitions-Read}.
 *
 * <p>Results are handed back on the caller's Vert.x context (the driver completes its futures on
 * its own I/O threads), so a handler's next step runs where it started and never blocks.
 */
@ApplicationScoped
public class Cql {

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    /** The level of conditional writes; a read that must see their outcome uses it too. */
    @ConfigProperty(name = "quarkus.cassandra.request.serial-consistency-level", defaultValue = "LOCAL_SERIAL")
    DefaultConsistencyLevel serial;

    private volatile CqlIdentifier keyspace;

    /** The serial consistency level, for reads that must see every acknowledged conditional write. */
    public DefaultConsistencyLevel serial() {
        return serial;
    }

    /** A statement that is not safe to retry on its own (counters, LWT, appends). */
    public static Query query(String cql) {
        return new Query(cql, false);
    }

    /** A statement that may be retried and speculatively executed: same effect if run twice. */
    public static Query idempotent(String cql) {
        return new Query(cql, true);
    }

    public QuarkusCqlSession session() {
        return session;
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
        return prepared(query).map(ps -> ps.boundStatementBuilder(values).setIdempotence(query.idempotent).build());
    }

    /** Runs a read that touches {@code partitions} partitions. Reads are always idempotent. */
    public Uni<AsyncResultSet> read(Query query, int partitions, Object... values) {
        return read(query, partitions, UnaryOperator.identity(), values);
    }

    /** A read whose statement is adjusted first, e.g. page size and paging state. */
    public Uni<AsyncResultSet> read(Query query, int partitions, UnaryOperator<BoundStatementBuilder> adjust,
            Object... values) {
        return prepared(query).chain(ps -> execute(
                adjust.apply(ps.boundStatementBuilder(values).setIdempotence(true)).build(), partitions));
    }

    /** Runs a write (reads no partition). */
    public Uni<AsyncResultSet> write(Query query, Object... values) {
        return bind(query, values).chain(stmt -> execute(stmt, 0));
    }

    /** Several writes that must land together: one logged (atomic) batch. */
    public Uni<AsyncResultSet> loggedBatch(List<BoundStatement> statements) {
        return execute(BatchStatement.newInstance(DefaultBatchType.LOGGED, statements.toArray(new BoundStatement[0])), 0);
    }

    /** Runs any statement; {@code partitions} is what it reads (0 for writes). */
    public Uni<AsyncResultSet> execute(Statement<?> statement, int partitions) {
        return call(partitions, () -> session.executeAsync(statement));
    }

    /** Runs a driver call that returns a future, e.g. a mapper DAO method. */
    public <T> Uni<T> call(int partitions, Supplier<CompletionStage<T>> call) {
        return Uni.createFrom().deferred(() -> {
            QueryStats.record(partitions);
            return onCallersContext(Uni.createFrom().completionStage(call));
        });
    }

    /** The rows of the page at hand; enough whenever the query's LIMIT is below the page size. */
    public static List<Row> rows(AsyncResultSet rs) {
        List<Row> rows = new ArrayList<>(rs.remaining());
        rs.currentPage().forEach(rows::add);
        return rows;
    }

    private Uni<PreparedStatement> prepared(Query query) {
        CompletionStage<PreparedStatement> ps = query.prepared;
        if (ps == null) {
            ps = session.prepareAsync(SimpleStatement.newInstance(query.cql).setKeyspace(keyspace()));
            query.prepared = ps;
            // A failed prepare (node down) must not stick: the next call prepares again.
            ps.whenComplete((ok, failure) -> {
                if (failure != null) {
                    query.prepared = null;
                }
            });
        }
        return onCallersContext(Uni.createFrom().completionStage(ps));
    }

    private static <T> Uni<T> onCallersContext(Uni<T> uni) {
        Context context = Vertx.currentContext();
        return context == null ? uni : uni.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }
}
