package dev.cqlpatterns.platform.limits;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * The budgets of every caller (application.properties, cql-patterns.rate-limits). Each is a token
 * bucket per identity: {@code capacity} at most at once, refilled evenly over {@code period}.
 */
@ConfigMapping(prefix = "cql-patterns.rate-limits")
public interface RateLimitSettings {

    /** False turns every limit off (RATE_LIMITS_ENABLED=false: load tests, benchmarks). */
    @WithDefault("true")
    boolean enabled();

    /** Callers whose buckets one replica keeps; the least recently used go first and start full again. */
    @WithDefault("100000")
    long maxCallers();

    /** GET and HEAD requests. */
    Budget reads();

    /** Every other request: creates, sends, changes, deletes. */
    Budget writes();

    /** Request body bytes of routes marked {@link ChargesBodyBytes} (pastes), on top of writes. */
    Budget bodyBytes();

    interface Budget {
        long capacity();

        Duration period();
    }
}
