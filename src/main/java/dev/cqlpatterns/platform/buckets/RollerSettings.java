package dev.cqlpatterns.platform.buckets;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Schedule and knobs of the bucket roller. */
@ConfigMapping(prefix = "cql-patterns.scheduler.roller")
public interface RollerSettings {

    /** How often the bucket roller runs (once per interval across all replicas). */
    @WithDefault("5m")
    Duration every();

    /** How long before a bucket's time begins the roller opens it. */
    @WithDefault("PT2H")
    Duration openAhead();

    /** How long after a bucket's time ends the roller closes it (late writes still land). */
    @WithDefault("PT10M")
    Duration closeAfter();
}
