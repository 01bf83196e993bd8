package dev.cqlpatterns.platform.observability;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** A request id the service makes up is a well-formed random UUID, and a new one each time. */
class RequestIdsTest {
    @Test
    void should_make_up_version_4_uuids_that_differ() {
        Set<UUID> seen = new HashSet<>();
        for (int i = 0; i < 10_000; i++) {
            UUID id = RequestIds.random();
            assertThat(id.version()).isEqualTo(4);
            assertThat(id.variant()).isEqualTo(2);
            assertThat(UUID.fromString(id.toString())).isEqualTo(id);
            seen.add(id);
        }
        assertThat(seen).hasSize(10_000);
    }
}
