package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.session.Session;
import com.datastax.oss.driver.internal.core.session.DefaultSession;
import com.datastax.oss.driver.internal.core.session.SessionWrapper;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Statements are prepared through requests of their own (PreparedStatements.PrepareAttempt), whose settings must not
 * become those of the statements bound from them: those keep the driver profile's request timeout
 * (a conditional write given 0.5 s would time out under load). A statement prepared more than once
 * (a hedged prepare) keeps what reprepares it on a node that has not seen it.
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

    @Test
    void a_statement_whose_second_prepare_was_dropped_should_still_be_repreparable() throws Exception {
        CqlSession session = cql.session().await().atMost(Duration.ofSeconds(20));
        Session driver = session;
        while (driver instanceof SessionWrapper wrapper) {
            driver = wrapper.getDelegate();
        }
        // A text no other code prepares, twice, as a hedged prepare does when both attempts answer.
        String text =
                "SELECT owner FROM " + cql.keyspace().asCql(true) + ".leases WHERE name = '" + UUID.randomUUID() + "'";
        PreparedStatement kept = session.prepareAsync(new PreparedStatements.PrepareAttempt(text))
                .toCompletableFuture()
                .get();
        WeakReference<PreparedStatement> dropped =
                new WeakReference<>(session.prepareAsync(new PreparedStatements.PrepareAttempt(text))
                        .toCompletableFuture()
                        .get());
        // The driver's timer holds the request a while after its answer: up to 15 s.
        for (int i = 0; i < 300 && dropped.get() != null; i++) {
            System.gc();
            Thread.sleep(50);
        }
        assertThat(dropped.get())
                .as("the second prepare's statement, collected")
                .isNull();

        assertThat(((DefaultSession) driver).getRepreparePayloads().get(kept.getId()))
                .as("what reprepares the statement kept, after the other prepare of its text was collected")
                .isNotNull();
    }
}
