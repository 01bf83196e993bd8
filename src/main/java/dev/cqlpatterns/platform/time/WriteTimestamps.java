package dev.cqlpatterns.platform.time;

import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.time.TimestampGenerator;
import io.quarkus.arc.Arc;
import io.quarkus.arc.ArcContainer;
import io.quarkus.runtime.annotations.RegisterForReflection;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

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
    private static final long UUID_EPOCH_MICROS = 12_219_292_800_000_000L;

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

    /** {@code at} as a write timestamp (USING TIMESTAMP): microseconds since the epoch. */
    public static long micros(Instant at) {
        return ChronoUnit.MICROS.between(Instant.EPOCH, at);
    }

    /** A timeuuid's own time in microseconds (its 100 ns ticks / 10): the write timestamp of what it names. */
    public static long micros(UUID timeuuid) {
        return timeuuid.timestamp() / 10 - UUID_EPOCH_MICROS;
    }

    @Override
    public long next() {
        Instant now = clock.instant();
        return micros.next(Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1_000));
    }

    @Override
    public void close() {}
}
