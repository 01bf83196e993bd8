package dev.cqlpatterns.platform.generations;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;

/**
 * Notes each key of a {@link FilledSet} as filled on its first read (set_fills, cql/057_set_fills.cql).
 * Every set holds what the tables it was built beside held: reads filled the keys they met, and the
 * set-fills job of the release before filled every other one. So a key is noted, never filled; the
 * note keeps the release before, which fills a key it finds unnoted from those tables, from filling
 * one from tables this release no longer writes.
 */
@ApplicationScoped
public class SetFills {
    private static final Query FILLED =
            Cql.idempotent("SELECT filled_at FROM set_fills WHERE set_name = ? AND set_key = ?");
    private static final Query MARK_FILLED =
            Cql.idempotent("INSERT INTO set_fills (set_name, set_key, filled_at) VALUES (?, ?, ?)");

    @Inject
    Cql cql;

    @Inject
    PartitionGenerations generations;

    @Inject
    Clock clock;

    /** The generation readers of the set's {@code key} read now, the key noted as filled first if need be. */
    public <K> Uni<Integer> current(FilledSet<K, ?> set, K key) {
        Uni<Void> noted = cql.read(FILLED, set.name(), set.key(key))
                .chain(rs -> rs.one() != null
                        ? Uni.createFrom().voidItem()
                        : cql.write(MARK_FILLED, set.name(), set.key(key), clock.instant())
                                .replaceWithVoid());
        return Uni.combine().all().unis(noted, generations.current(set, key)).with((ignored, generation) -> generation);
    }
}
