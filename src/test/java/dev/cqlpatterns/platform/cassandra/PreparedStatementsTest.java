package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Statements are prepared through requests of their own (Cql.PrepareAttempt), whose settings must not
 * become those of the statements bound from them: those keep the driver profile's request timeout
 * (a conditional write given 0.5 s would time out under load).
 */
@QuarkusTest
class PreparedStatementsTest {
    private static final Query READ = Cql.idempotent("SELECT owner FROM leases WHERE name = ?");

    @Inject
    Cql cql;

    @Test
    void should_leave_bound_statements_the_profiles_timeout() {
        BoundStatement bound = cql.bind(READ, "nobody").await().atMost(Duration.ofSeconds(20));
        assertThat(bound.getTimeout()).isNull();
        assertThat(bound.getPreparedStatement().getQuery()).contains(".leases");
    }
}
