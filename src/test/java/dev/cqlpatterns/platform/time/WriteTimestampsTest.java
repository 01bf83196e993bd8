package dev.cqlpatterns.platform.time;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class WriteTimestampsTest {
    private static final Instant AT = Instant.parse("2026-03-01T12:00:00.123456Z");
    private static final long AT_MICROS = 1_772_366_400_123_456L;

    /** A clock a test sets. */
    private static final class SetClock extends Clock {
        Instant now = AT;

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

    private final SetClock clock = new SetClock();
    private final WriteTimestamps timestamps = new WriteTimestamps(clock);

    @Test
    void should_give_the_clock_in_microseconds() {
        assertThat(timestamps.next()).isEqualTo(AT_MICROS);
    }

    @Test
    void should_stay_strictly_increasing_while_the_clock_stands_or_jitters_back() {
        long first = timestamps.next();
        long second = timestamps.next();
        clock.now = AT.minusMillis(900);
        long third = timestamps.next();
        assertThat(second).isEqualTo(first + 1);
        assertThat(third).isEqualTo(first + 2);
    }

    @Test
    void should_follow_the_clock_forward_and_a_step_back_of_more_than_a_second() {
        timestamps.next();
        clock.now = AT.plusSeconds(30);
        assertThat(timestamps.next()).isEqualTo(AT_MICROS + 30_000_000);
        clock.now = AT;
        assertThat(timestamps.next()).as("a replica whose clock is behind").isEqualTo(AT_MICROS);
    }
}
