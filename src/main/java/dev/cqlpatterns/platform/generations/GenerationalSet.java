package dev.cqlpatterns.platform.generations;

import io.smallrye.mutiny.Uni;

/**
 * A set kept as the clustering rows of a partition (or of a few, such as a group's buckets) per key,
 * in generations (generation 0 is the set's original table): what {@link PartitionGenerations} needs
 * to move one generation to the next. Implemented by the feature that owns the set's tables.
 *
 * @param <K> the set's partition key
 */
public interface GenerationalSet<K> {
    /** Timestamp of the rows a move copies: older than every change, so any change wins over a copy. */
    long COPIED = 1L;

    /** The set's name in partition_generations. */
    String name();

    /** The partition key as partition_generations' set_key: its text. */
    default String key(K key) {
        return String.valueOf(key);
    }

    /**
     * Writes every row of {@code from} into {@code to} USING TIMESTAMP {@link #COPIED} (reading with
     * {@link PartitionGenerations#forEachRow}); answers the number of members copied.
     */
    Uni<Long> copy(K key, int from, int to);

    /** Deletes the partitions of {@code generation}. */
    Uni<Void> drop(K key, int generation);
}
