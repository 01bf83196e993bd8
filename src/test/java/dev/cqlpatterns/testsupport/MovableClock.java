package dev.cqlpatterns.testsupport;

import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.Supplier;

/**
 * The service's clock for tests that cross day, month and year boundaries or expiries: it tells
 * system time until a test sets it. An alternative without a priority: it replaces the service's
 * clock only under a test profile that selects it (getEnabledAlternatives), so test classes
 * without such a profile never see it.
 */
@Alternative
@Singleton
public class MovableClock extends Clock {
    private volatile Instant fixed;

    public void set(Instant at) {
        fixed = at;
    }

    public void reset() {
        fixed = null;
    }

    /**
     * Runs {@code request} as a replica whose clock is {@code skew} off real time would serve it
     * (reaching its write timestamps too, through WriteTimestamps), then tells real time again;
     * answers what the request answered.
     */
    public <T> T skewedBy(Duration skew, Supplier<T> request) {
        set(Instant.now().plus(skew));
        try {
            return request.get();
        } finally {
            reset();
        }
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
        throw new UnsupportedOperationException("the service's clock is UTC");
    }
}
