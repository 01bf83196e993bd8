package dev.cqlpatterns.platform.generations;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.scheduling.DataMigration;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Instance;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The set-fills job, {@code job set-fills}: fills every key of every {@link SetFill} of this
 * deployment that set_fills does not list yet, walking the partitions of each set's {@link KeyScan}
 * tables in token order, and notes in set_fill_scans how far it got (cql/058_set_fill_scans.cql).
 * Once it has finished, every key's set holds what its source holds, so a release may trust the
 * sets without their sources.
 */
@ApplicationScoped
public class SetFillsJob {
    public static final String NAME = "set-fills";
    private static final int FILLS_AT_ONCE = 8;
    private static final Query SCANS =
            Cql.idempotent("SELECT scanned_table, scanned_to, finished_at FROM set_fill_scans WHERE set_name = ?");
    private static final Query SCANNED = Cql.idempotent(
            "INSERT INTO set_fill_scans (set_name, scanned_table, scanned_to, finished_at) VALUES (?, ?, ?, ?)");

    @Inject
    Instance<SetFill> sets;

    @Inject
    Cql cql;

    @Inject
    GenerationSettings settings;

    @Inject
    Clock clock;

    @Produces
    @Singleton
    DataMigration migration() {
        return new DataMigration(NAME, this::step);
    }

    /**
     * One batch of the first set (by name) with a table left to walk: the keys it visited, or null
     * when every walk has finished.
     */
    public Uni<Integer> step() {
        return step(sets.stream().sorted(Comparator.comparing(SetFill::set)).toList(), 0);
    }

    private Uni<Integer> step(List<SetFill> all, int index) {
        if (index == all.size()) {
            return Uni.createFrom().nullItem();
        }
        SetFill set = all.get(index);
        return cql.read(SCANS, set.set()).chain(rs -> {
            Map<String, Row> walked = new HashMap<>();
            Cql.rows(rs).forEach(row -> walked.put(row.getString("scanned_table"), row));
            for (KeyScan scan : set.scans()) {
                Row row = walked.get(scan.table());
                if (row == null || row.isNull("finished_at")) {
                    return batch(set, scan, row == null ? Long.MIN_VALUE : row.getLong("scanned_to"));
                }
            }
            return step(all, index + 1);
        });
    }

    /**
     * Fills the keys of the partitions at {@code from} on, then notes the last one's token: the next
     * batch starts there again, so a key that shares its token with the next one is never skipped.
     */
    private Uni<Integer> batch(SetFill set, KeyScan scan, long from) {
        int limit = settings.fillBatch();
        return cql.read(scan.batch(), from, limit).chain(rs -> {
            List<Row> rows = Cql.rows(rs);
            long to = rows.isEmpty() ? from : rows.get(rows.size() - 1).getLong("position");
            boolean finished = rows.size() < limit;
            Set<String> keys = new LinkedHashSet<>();
            rows.forEach(row -> keys.add(row.getString(0)));
            return Multi.createFrom()
                    .iterable(keys)
                    .onItem()
                    .transformToUni(key -> set.fill().apply(key).replaceWith(key))
                    .merge(FILLS_AT_ONCE)
                    .collect()
                    .last()
                    .chain(() -> cql.bind(SCANNED, set.set(), scan.table(), to, clock.instant()))
                    .chain(noted -> cql.execute(finished ? noted : noted.unset(3)))
                    .replaceWith(keys.size());
        });
    }
}
