package dev.cqlpatterns.platform.time;

import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.cqlpatterns.platform.errors.ProblemException;
import java.security.SecureRandom;
import java.time.Instant;
import java.time.format.DateTimeParseException;
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

    /** The earliest instant a time slice may name: timeuuids of events start at the Unix epoch. */
    public static final Instant EARLIEST = Instant.EPOCH;
    /** The latest instant a time slice may name, well inside what a timeuuid can hold. */
    public static final Instant LATEST = Instant.parse("4000-01-01T00:00:00Z");

    private TimeUuids() {}

    /**
     * A time-slice bound from a query parameter: absent is {@code fallback}; not an ISO-8601
     * instant, or outside {@link #EARLIEST}..{@link #LATEST}, is a 400 naming {@code field}
     * (+1000000-01-01T00:00:00Z parses, but no timeuuid holds it).
     */
    public static Instant sliceBound(String field, String raw, Instant fallback) {
        if (raw == null || raw.isEmpty()) {
            return fallback;
        }
        Instant at;
        try {
            at = Instant.parse(raw);
        } catch (DateTimeParseException e) {
            throw ProblemException.invalid(field, "must be an ISO-8601 UTC instant such as 2015-06-01T00:00:00Z");
        }
        if (at.isBefore(EARLIEST) || at.isAfter(LATEST)) {
            throw ProblemException.invalid(field, "must be between " + EARLIEST + " and " + LATEST);
        }
        return at;
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
