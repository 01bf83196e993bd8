package dev.cqlpatterns.platform.accounting;

import io.smallrye.common.vertx.ContextLocals;
import io.smallrye.common.vertx.VertxContext;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What one HTTP request cost in Cassandra: partitions read and CQL statements run. Kept in the
 * request's Vert.x duplicated context, which every step of a non-blocking handler runs on (see
 * {@code Cql}), so no thread-local or request-scoped proxy is needed.
 */
public final class QueryStats {
    private static final String KEY = QueryStats.class.getName();

    private final AtomicInteger partitions = new AtomicInteger();
    private final AtomicInteger statements = new AtomicInteger();

    static QueryStats begin() {
        QueryStats stats = new QueryStats();
        if (VertxContext.isOnDuplicatedContext()) {
            ContextLocals.put(KEY, stats);
        }
        return stats;
    }

    static Optional<QueryStats> current() {
        return VertxContext.isOnDuplicatedContext() ? ContextLocals.get(KEY) : Optional.empty();
    }

    /** Records one statement that reads {@code partitionsRead} partitions (0 for writes). */
    public static void record(int partitionsRead) {
        current().ifPresent(s -> {
            s.statements.incrementAndGet();
            s.partitions.addAndGet(partitionsRead);
        });
    }

    /**
     * Adds partitions to a statement already recorded, for a read whose partitions are known only
     * from its rows: an index query without a partition key (scatter-gather over the ring).
     */
    public static void addPartitions(int partitionsRead) {
        current().ifPresent(s -> s.partitions.addAndGet(partitionsRead));
    }

    public int partitions() {
        return partitions.get();
    }

    public int statements() {
        return statements.get();
    }
}
