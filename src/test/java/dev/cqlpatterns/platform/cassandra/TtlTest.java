package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class TtlTest {
    private static final Instant NOW = Instant.parse("2026-11-26T12:00:00Z");

    @Test
    void should_round_up_so_a_row_never_expires_before_its_time() {
        assertThat(Ttl.until(NOW.plusMillis(1), NOW)).isEqualTo(1);
        assertThat(Ttl.until(NOW.plusSeconds(10), NOW)).isEqualTo(10);
        assertThat(Ttl.until(NOW.plusMillis(10_001), NOW)).isEqualTo(11);
    }

    @Test
    void should_never_answer_zero_which_cql_takes_as_no_ttl() {
        assertThat(Ttl.until(NOW, NOW)).isEqualTo(1);
        assertThat(Ttl.until(NOW.minusSeconds(30), NOW)).isEqualTo(1);
    }

    @Test
    void should_cap_at_the_longest_ttl_cql_takes() {
        assertThat(Ttl.until(NOW.plus(Duration.ofDays(40_000)), NOW)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void should_take_a_retention_within_its_bounds_and_name_the_setting_otherwise() {
        assertThat(Ttl.of(Duration.ofDays(30), Duration.ofDays(1), "x.retention"))
                .isEqualTo(2_592_000);
        assertThat(Ttl.of(Duration.ZERO, Duration.ZERO, "x.retention")).isZero();
        assertThatThrownBy(() -> Ttl.of(Duration.ofHours(23), Duration.ofDays(1), "x.retention"))
                .hasMessageContaining("x.retention");
        assertThatThrownBy(() -> Ttl.of(Duration.ofDays(30_000), Duration.ZERO, "x.retention"))
                .hasMessageContaining("x.retention");
    }
}
