package dev.cqlpatterns.groups;

import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

/** The service's clock in tests that cross days; enabled only by {@link SmallLimitsProfile}. */
@Alternative
@Singleton
public class MutableClock extends Clock {
    private volatile Instant now = Instant.now();

    public void set(Instant instant) {
        now = instant;
    }

    @Override
    public Instant instant() {
        return now;
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
