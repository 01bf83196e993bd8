package dev.cqlpatterns.platform.generations;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** When a set's partition moves to its next generation (partition_generations). */
@ConfigMapping(prefix = "cql-patterns.generations")
public interface GenerationSettings {

    /**
     * The most removals one generation collects before it moves: the most row tombstones a read of the
     * set scans, besides those made during one move. Below Cassandra's warning (1,000) with room for those.
     * A generation whose size is not known (generation 0) moves after this many.
     */
    @WithDefault("500")
    int removals();

    /** The fewest removals a generation collects before it moves, however small the set. */
    @WithDefault("100")
    int removalsMin();

    /**
     * Members of a generation, as its move copied them, per removal it collects before it moves on
     * (between {@link #removalsMin()} and {@link #removals()}): a move then copies at most this many rows
     * per removal until the most removals bounds it, and a small set's reads meet fewer tombstones than a
     * large one's.
     */
    @WithDefault("4")
    int membersPerRemoval();

    /** Removals after which a generation of {@code live} members (null: not known) moves. */
    default int removalsBefore(Integer live) {
        return live == null ? removals() : Math.min(removals(), Math.max(removalsMin(), live / membersPerRemoval()));
    }

    /** Whether this process moves generations (every release follows them). */
    @WithDefault("true")
    boolean moves();

    /** How long after a flip the old generation is dropped: longer than any read of the old one takes. */
    @WithDefault("PT10S")
    Duration dropDelay();

    /** A move claimed longer ago than this is taken over (its mover died); longer than a move takes. */
    @WithDefault("PT2M")
    Duration staleMove();
}
