package dev.cqlpatterns.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.scheduling.ClusterLease;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ClusterLeaseTest {

    @Inject
    Cql cql;

    @Test
    void should_let_exactly_one_of_several_owners_take_a_tick() {
        String job = "test-job-" + UUID.randomUUID();
        Instant fire = Instant.parse("2026-01-01T00:00:00Z");
        List<ClusterLease> replicas = List.of(
                ClusterLease.withRandomOwner(cql),
                ClusterLease.withRandomOwner(cql),
                ClusterLease.withRandomOwner(cql));
        List<Boolean> won = Uni.join()
                .all(replicas.stream()
                        .map(r -> r.tryAcquireTick(job, fire, Duration.ofMinutes(1)))
                        .toList())
                .andFailFast()
                .await()
                .atMost(Duration.ofSeconds(20));
        assertThat(won.stream().filter(Boolean::booleanValue)).hasSize(1);

        // a replica firing a little late in the same tick loses too; the next tick is free again
        assertThat(replicas.get(0)
                        .tryAcquireTick(job, fire.plusSeconds(30), Duration.ofMinutes(1))
                        .await()
                        .atMost(Duration.ofSeconds(10)))
                .isFalse();
        assertThat(replicas.get(0)
                        .tryAcquireTick(job, fire.plusSeconds(60), Duration.ofMinutes(1))
                        .await()
                        .atMost(Duration.ofSeconds(10)))
                .isTrue();
    }

    @Test
    void should_release_only_for_its_owner() {
        String name = "test-lease-" + UUID.randomUUID();
        ClusterLease a = ClusterLease.withRandomOwner(cql);
        ClusterLease b = ClusterLease.withRandomOwner(cql);
        assertThat(a.tryAcquire(name, Duration.ofMinutes(1), Instant.now())
                        .await()
                        .indefinitely())
                .isTrue();
        assertThat(b.release(name).await().indefinitely()).isFalse();
        assertThat(b.tryAcquire(name, Duration.ofMinutes(1), Instant.now())
                        .await()
                        .indefinitely())
                .isFalse();
        assertThat(a.release(name).await().indefinitely()).isTrue();
        assertThat(b.tryAcquire(name, Duration.ofMinutes(1), Instant.now())
                        .await()
                        .indefinitely())
                .isTrue();
    }
}
