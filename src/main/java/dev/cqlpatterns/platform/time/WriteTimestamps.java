package dev.cqlpatterns.platform.time;

import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.time.TimestampGenerator;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Clock;
import java.time.Instant;

/**
 * The driver's write timestamps (application.conf names this class), from the service's
 * {@link Clock}: the clock every time value of the data comes from, so a write's timestamp and the
 * times it stores agree, and a replica's clock, skewed or moved in a test, reaches every write the
 * way it does in production. Statements with USING TIMESTAMP, and conditional writes (Paxos takes
 * its ballot's time), keep their own.
 *
 * <p>Strictly increasing while the clock jitters, like the driver's own generator, so two writes of
 * one process keep their order; a step back of more than a second is taken as it is
 * ({@link IncreasingTime}).
 */
@RegisterForReflection
public class WriteTimestamps implements TimestampGenerator {
    private final Clock clock;
    private final IncreasingTime micros = new IncreasingTime(1_000_000);

    /** The driver's constructor: the service's clock bean, or the system's where there is no container. */
    public WriteTimestamps(DriverContext context) {
        this(serviceClock());
    }

    WriteTimestamps(Clock clock) {
        this.clock = clock;
    }

    private static Clock serviceClock() {
        ArcContainer container = Arc.container();
        return container == null
                ? Clock.systemUTC()
                : container.instance(Clock.class).get();
    }

    @Override
    public long next() {
        Instant now = clock.instant();
        return micros.next(Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000));
    }

    @Override
    public void close() {}
}
