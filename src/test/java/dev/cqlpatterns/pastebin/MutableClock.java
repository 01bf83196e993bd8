package dev.cqlpatterns.pastebin;

import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/**
 * The service's clock in {@link PastebinClockProfile} tests: the system clock until a test sets
 * it. Enabled by that profile only, so no other test sees it.
 */
@Alternative
@Singleton
public class MutableClock extends Clock {
    private volatile Instant fixed;

    public void set(Instant at) {
        fixed = at;
    }

    public void reset() {
        fixed = null;
    }

    @Override
    public Instant instant() {
        Instant at = fixed;
        return at != null ? at : Instant.now();
    }

    @Override
    public ZoneId getZone() {
        return ZoneOffset.UTC;
    }

    @Override
    public Clock withZone(ZoneId zone) {
        return this;
    }
}
