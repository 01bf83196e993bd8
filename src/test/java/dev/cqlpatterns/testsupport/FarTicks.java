package dev.cqlpatterns.testsupport;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.concurrent.ThreadLocalRandom;

/** Instants for a cluster job's tick that no scheduled run and no other test claims. */
public final class FarTicks {
    private FarTicks() {}

    /**
     * Noon of a random day of the 22nd century: far from now, so the service's own scheduled runs never compete
     * for it, far from the roller's day-end work, and at a random day, so runs kept on a test node do not either.
     */
    public static Instant next() {
        long days = ThreadLocalRandom.current().nextLong(0, 36_000);
        return Instant.parse("2100-01-01T12:00:01Z").plus(days, ChronoUnit.DAYS);
    }
}
