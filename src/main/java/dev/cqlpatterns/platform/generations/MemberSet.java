package dev.cqlpatterns.platform.generations;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.Row;
import io.smallrye.mutiny.Uni;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A generational set whose members are named by a text id and carry a value of type {@code V}: a
 * move copies them all at once.
 *
 * @param <K> the set's partition key
 * @param <V> what the set holds of one member besides its id
 */
public interface MemberSet<K, V> extends GenerationalSet<K> {
    /** Members a move's copy writes at once: a set holds at most a few thousand. */
    int CHUNK = 200;

    /** Every row {@code read} returns, a page at a time, as a member's value by its {@code id}. */
    static <V> Uni<Map<String, V>> members(
            Function<UnaryOperator<BoundStatementBuilder>, Uni<AsyncResultSet>> read,
            Function<Row, String> id,
            Function<Row, V> value) {
        Map<String, V> members = new HashMap<>();
        return PartitionGenerations.forEachRow(read, row -> {
                    members.put(id.apply(row), value.apply(row));
                    return Uni.createFrom().voidItem();
                })
                .map(rows -> members);
    }

    /** The members of {@code key} in {@code generation} of the set: each one's value, by id. */
    Uni<Map<String, V>> held(K key, int generation);

    /** Writes member {@code id} with {@code value} into {@code generation} as of {@code timestamp}. */
    Uni<?> put(K key, int generation, String id, V value, long timestamp);

    /** Deletes member {@code id} from {@code generation} as of {@code timestamp}. */
    Uni<?> remove(K key, int generation, String id, long timestamp);

    /** A move's copy: every member of {@code from}, read at once (a set is bounded), put into {@code to}. */
    @Override
    default Uni<Long> copy(K key, int from, int to) {
        return held(key, from)
                .chain(held ->
                        putCopies(key, to, List.copyOf(held.entrySet()), 0).replaceWith((long) held.size()));
    }

    /** Puts {@code members} from {@code from} on into {@code generation} as of {@link #COPIED}, {@value #CHUNK} at a time. */
    private Uni<Void> putCopies(K key, int generation, List<Map.Entry<String, V>> members, int from) {
        if (from >= members.size()) {
            return Uni.createFrom().voidItem();
        }
        List<Uni<Void>> chunk = members.subList(from, Math.min(members.size(), from + CHUNK)).stream()
                .map(m -> put(key, generation, m.getKey(), m.getValue(), COPIED).replaceWithVoid())
                .toList();
        return Uni.join().all(chunk).andFailFast().chain(() -> putCopies(key, generation, members, from + CHUNK));
    }
}
