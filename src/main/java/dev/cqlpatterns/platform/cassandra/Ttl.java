package dev.cqlpatterns.platform.cassandra;

import java.time.Duration;
import java.time.Instant;

/** CQL TTLs ({@code USING TTL ?}): whole seconds, from 1 to {@link Integer#MAX_VALUE}; 0 is none. */
public final class Ttl {
    private Ttl() {}

    /**
     * The TTL of a row that must live until {@code at}: the seconds from {@code now}, rounded up so the
     * row never expires early, and at least 1 (a TTL of 0 would keep it forever).
     */
    public static int until(Instant at, Instant now) {
        long millis = Math.max(1, Duration.between(now, at).toMillis());
        return (int) Math.min(Integer.MAX_VALUE, (millis + 999) / 1000);
    }

    /**
     * A configured retention as a TTL, checked once at start-up: {@code retention} must lie between
     * {@code shortest} and the longest TTL CQL takes (about 68 years). A zero retention is a TTL of 0
     * (none) where {@code shortest} is zero.
     */
    public static int of(Duration retention, Duration shortest, String property) {
        long seconds = retention.toSeconds();
        if (seconds < shortest.toSeconds() || seconds > Integer.MAX_VALUE) {
            throw new IllegalStateException(property + " must be between " + shortest + " and " + Integer.MAX_VALUE
                    + " seconds (about 68 years), not " + retention);
        }
        return (int) seconds;
    }
}
