package dev.cqlpatterns.platform.idempotency;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Idempotency-Key settings, shared by every create. */
@ConfigMapping(prefix = "cql-patterns.idempotency")
public interface IdempotencySettings {

    /** How long a key is remembered: a retry within it answers the first answer; after it, the key is new. */
    @WithDefault("PT24H")
    Duration ttl();
}
