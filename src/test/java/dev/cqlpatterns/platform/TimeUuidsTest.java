package dev.cqlpatterns.platform;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.uuid.Uuids;
import dev.cqlpatterns.platform.time.TimeUuids;
import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class TimeUuidsTest {

    @Test
    void should_carry_the_instant_it_was_made_for() {
        Instant at = Instant.parse("2013-04-03T07:03:20.123Z");
        UUID id = TimeUuids.at(at);
        assertThat(id.version()).isEqualTo(1);
        assertThat(TimeUuids.instant(id)).isEqualTo(at);
        assertThat(Uuids.unixTimestamp(id)).isEqualTo(at.toEpochMilli());
    }

    @Test
    void should_be_unique_within_one_millisecond() {
        Instant at = Instant.parse("2026-01-01T00:00:00Z");
        Set<UUID> ids = new HashSet<>();
        for (int i = 0; i < 20_000; i++) {
            ids.add(TimeUuids.at(at));
        }
        assertThat(ids).hasSize(20_000);
    }

    @Test
    void should_fall_between_min_and_max_timeuuid_of_its_millisecond() {
        Instant at = Instant.parse("2026-01-01T00:00:00.500Z");
        UUID id = TimeUuids.at(at);
        long ts = id.timestamp();
        assertThat(ts)
                .isBetween(
                        TimeUuids.startOf(at).timestamp(), TimeUuids.endOf(at).timestamp());
    }
}
