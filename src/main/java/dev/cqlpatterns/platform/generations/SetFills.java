package dev.cqlpatterns.platform.generations;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Fills a {@link FilledSet} from its source table once per key, before the first read that trusts the
 * set or when the set-fills job walks past the key: the protocol of cql/057_set_fills.cql. Every write
 * goes through {@link PartitionGenerations#change}.
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
    GenerationSettings settings;

    @Inject
    Clock clock;

    /**
     * The generation readers of the set's {@code key} read now, once the set holds every member of
     * {@code source} (the source table's members of the key, by id): filled from there on the key's
     * first read.
     */
    public <K, V> Uni<Integer> current(
            FilledSet<K, V> set, K key, Function<K, Uni<Map<String, FilledSet.Member<V>>>> source) {
        return filled(set, key, source).chain(() -> generations.current(set, key));
    }

    /**
     * The set-fills job's view of {@code set} (SetFillsJob): its keys filled from {@code source}, found
     * in the partitions of {@code scans}.
     */
    public <V> SetFill walked(
            FilledSet<String, V> set,
            Function<String, Uni<Map<String, FilledSet.Member<V>>>> source,
            KeyScan... scans) {
        return new SetFill(set.name(), key -> filled(set, key, source), List.of(scans));
    }

    /** Fills the set's {@code key} from {@code source} unless set_fills says it was. */
    private <K, V> Uni<Void> filled(
            FilledSet<K, V> set, K key, Function<K, Uni<Map<String, FilledSet.Member<V>>>> source) {
        return cql.read(FILLED, set.name(), set.key(key))
                .chain(rs -> rs.one() != null ? Uni.createFrom().voidItem() : fill(set, key, source));
    }

    private <K, V> Uni<Void> fill(
            FilledSet<K, V> set, K key, Function<K, Uni<Map<String, FilledSet.Member<V>>>> source) {
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        long settled = ChronoUnit.MICROS.between(Instant.EPOCH, now.minus(settings.fillSettle()));
        return generations
                .current(set, key)
                .chain(g -> Uni.combine()
                        .all()
                        .unis(source.apply(key), set.held(key, g))
                        .asTuple())
                .chain(both -> {
                    Map<String, FilledSet.Member<V>> from = both.getItem1();
                    Map<String, FilledSet.Member<V>> held = both.getItem2();
                    List<Map.Entry<String, FilledSet.Member<V>>> missing = new ArrayList<>();
                    List<Uni<Void>> writes = new ArrayList<>();
                    from.forEach((id, member) -> {
                        FilledSet.Member<V> in = held.get(id);
                        if (in == null) {
                            missing.add(Map.entry(id, member));
                        } else if (!Objects.equals(in.value(), member.value()) && in.written() < settled) {
                            long at = Math.max(member.written(), in.written() + 1);
                            writes.add(
                                    generations.change(set, key, false, g -> set.put(key, g, id, member.value(), at)));
                        }
                    });
                    held.forEach((id, in) -> {
                        if (!from.containsKey(id) && in.written() < settled) {
                            writes.add(
                                    generations.change(set, key, true, g -> set.remove(key, g, id, in.written() + 1)));
                        }
                    });
                    if (!missing.isEmpty()) {
                        writes.add(generations.change(
                                set, key, false, g -> set.putAll(key, g, missing, 0, FilledSet.Member::written)));
                    }
                    return writes.isEmpty()
                            ? Uni.createFrom().voidItem()
                            : Uni.join().all(writes).andFailFast().replaceWithVoid();
                })
                .chain(() -> cql.write(MARK_FILLED, set.name(), set.key(key), now))
                .replaceWithVoid();
    }
}
