package dev.cqlpatterns.platform.generations;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** When a set's partition moves to its next generation (cql/049_partition_generations.cql). */
@ConfigMapping(prefix = "cql-patterns.generations")
public interface GenerationSettings {

    /**
     * Removals one generation collects before it moves: the most row tombstones a read of the set
     * scans, besides those made during one move. Below Cassandra's warning (1,000) with room for those.
     */
    @WithDefault("500")
    int removals();

    /** Whether this process moves generations; off while a release that does not follow them may run. */
    @WithDefault("false")
    boolean moves();

    /** How long after a flip the old generation is dropped: longer than any read of the old one takes. */
    @WithDefault("PT10S")
    Duration dropDelay();

    /** A move claimed longer ago than this is taken over (its mover died); longer than a move takes. */
    @WithDefault("PT2M")
    Duration staleMove();
}
