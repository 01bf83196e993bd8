package dev.cqlpatterns.clickstream;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Min;
import java.time.Duration;
import java.util.Optional;

@ConfigMapping(prefix = "cql-patterns.clickstream")
public interface ClickstreamSettings {

    /**
     * Partitions per month; a write picks one round-robin, a read reads them all. May only grow:
     * readers read shards 0..shards-1 (see the clickstream table in docs/tables.md).
     */
    @WithDefault("4")
    @Min(1)
    int shards();

    /** The most months one GET /clicks may span, from and to included. */
    @WithDefault("24")
    @Min(1)
    int maxSpanMonths();

    /** A TTL for clicks; empty keeps them (the month bucket bounds partitions either way). */
    Optional<Duration> retention();
}
