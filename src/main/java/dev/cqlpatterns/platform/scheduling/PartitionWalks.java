package dev.cqlpatterns.platform.scheduling;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Data migrations that visit every partition of one table, in token order, a batch at a time, with
 * how far they got in data_migration_scans (cql/062_data_migration_scans.cql): a run stopped
 * anywhere resumes at the last batch's last token, and one after the end reads one row and stops.
 */
@ApplicationScoped
public class PartitionWalks {
    /** Partitions visited at once within a batch. */
    private static final int VISITS_AT_ONCE = 8;

    private static final Query PROGRESS = Cql.idempotent(
            "SELECT scanned_to, finished_at FROM data_migration_scans WHERE migration = ? AND scanned_table = ?");
    private static final Query SCANNED = Cql.idempotent("INSERT INTO data_migration_scans (migration, scanned_table, "
            + "scanned_to, finished_at) VALUES (?, ?, ?, ?)");

    @Inject
    Cql cql;

    @Inject
    Clock clock;

    /**
     * The data migration {@code name}: {@code visit} applied to the key of every partition of
     * {@code table} (a single-column partition key, text), {@code batch} partitions per step.
     * A visit must be idempotent: a partition whose token another one shares is visited again by the
     * next batch, and a stopped run's last batch again by the next run.
     */
    public DataMigration walk(
            String name, String table, String partitionKey, int batch, Function<String, Uni<Void>> visit) {
        Query keys = Cql.idempotent("SELECT DISTINCT " + partitionKey + ", token(" + partitionKey
                + ") AS position FROM " + table + " WHERE token(" + partitionKey + ") >= ? LIMIT ?");
        return new DataMigration(
                name,
                () -> cql.read(PROGRESS, name, table).chain(rs -> {
                    Row progress = rs.one();
                    if (progress != null && !progress.isNull("finished_at")) {
                        return Uni.createFrom().nullItem();
                    }
                    long from = progress == null ? Long.MIN_VALUE : progress.getLong("scanned_to");
                    return cql.read(keys, from, batch).chain(found -> {
                        List<Row> rows = Cql.rows(found);
                        long to = rows.isEmpty()
                                ? from
                                : rows.get(rows.size() - 1).getLong("position");
                        boolean finished = rows.size() < batch;
                        Set<String> visited = new LinkedHashSet<>();
                        rows.forEach(row -> visited.add(row.getString(0)));
                        return Multi.createFrom()
                                .iterable(visited)
                                .onItem()
                                .transformToUni(key -> visit.apply(key).replaceWith(key))
                                .merge(VISITS_AT_ONCE)
                                .collect()
                                .last()
                                .chain(() -> cql.bind(SCANNED, name, table, to, clock.instant()))
                                .chain(noted -> cql.execute(finished ? noted : noted.unset(3)))
                                .replaceWith(visited.size());
                    });
                }));
    }
}
