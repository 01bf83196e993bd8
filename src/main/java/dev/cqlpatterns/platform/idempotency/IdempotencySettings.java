package dev.cqlpatterns.platform.idempotency;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.time.Instant;

/** Idempotency-Key settings, shared by every create. */
@ConfigMapping(prefix = "cql-patterns.idempotency")
public interface IdempotencySettings {

    /** How long a key is remembered: a retry within it answers the first answer; after it, the key is new. */
    @WithDefault("PT24H")
    Duration ttl();

    /**
     * Before this instant no replay of a keyed request can still write (the key's TTL, plus an hour
     * for the replay itself): data last written before it is settled.
     */
    default Instant settledBefore(Instant now) {
        return now.minus(ttl()).minus(Duration.ofHours(1));
    }
}
