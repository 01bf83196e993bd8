package dev.cqlpatterns.platform.time;

import com.datastax.oss.driver.api.core.uuid.Uuids;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Time-based (version 1) UUIDs at a given instant, so event ids follow the injectable clock
 * rather than the machine's. Ordering and slicing match Cassandra's timeuuid: {@link #startOf}
 * and {@link #endOf} are the bounds CQL's minTimeuuid / maxTimeuuid would give.
 */
public final class TimeUuids {
    private static final long UUID_EPOCH_OFFSET_MILLIS = 12_219_292_800_000L;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final AtomicInteger SUB_MILLI = new AtomicInteger(RANDOM.nextInt(10_000));

    private TimeUuids() {
    }

    /** A new, unique timeuuid whose timestamp is {@code at} (millisecond precision). */
    public static UUID at(Instant at) {
        long ticks = (at.toEpochMilli() + UUID_EPOCH_OFFSET_MILLIS) * 10_000L
                + Math.floorMod(SUB_MILLI.getAndIncrement(), 10_000);
        long msb = (ticks & 0xFFFFFFFFL) << 32 // time_low
                | ((ticks >>> 32) & 0xFFFFL) << 16 // time_mid
                | 0x1000L // version 1
                | ((ticks >>> 48) & 0x0FFFL); // time_hi
        // Random clock sequence and node: unique across replicas without a MAC address.
        long lsb = (RANDOM.nextLong() & 0x3FFFFFFFFFFFFFFFL) | 0x8000000000000000L;
        return new UUID(msb, lsb);
    }

    /** The instant a timeuuid was made at. */
    public static Instant instant(UUID timeuuid) {
        return Instant.ofEpochMilli(Uuids.unixTimestamp(timeuuid));
    }

    /** The smallest timeuuid at {@code at}: CQL's minTimeuuid. */
    public static UUID startOf(Instant at) {
        return Uuids.startOf(at.toEpochMilli());
    }

    /** The largest timeuuid at {@code at}: CQL's maxTimeuuid. */
    public static UUID endOf(Instant at) {
        return Uuids.endOf(at.toEpochMilli());
    }
}
