package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.retry.RetryDecision;
import com.datastax.oss.driver.api.core.retry.RetryPolicy;
import com.datastax.oss.driver.api.core.retry.RetryVerdict;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * A coordinator that answers an idempotent statement with a timeout of its own (it waited on a
 * replica that died a moment ago, or is paused) is followed by one more coordinator, and the driver
 * waits long enough for Cassandra's answer to arrive: with the driver's defaults, ClusterFaultsIT saw
 * requests answer 503 after a kill although two replicas of three held every row.
 */
@QuarkusTest
class NextCoordinatorRetryTest {
    private static final SimpleStatement IDEMPOTENT =
            SimpleStatement.newInstance("SELECT * FROM t").setIdempotent(true);
    private static final SimpleStatement NOT_IDEMPOTENT =
            SimpleStatement.newInstance("UPDATE c SET n = n + 1").setIdempotent(false);

    @Inject
    QuarkusCqlSession session;

    @Test
    void should_retry_an_idempotent_statement_once_on_the_next_coordinator() {
        for (String profile : new String[] {"default", Cql.CONDITIONAL_PROFILE}) {
            RetryPolicy policy = session.getContext().getRetryPolicy(profile);
            assertThat(policy).as(profile).isInstanceOf(NextCoordinatorRetry.class);
            assertThat(decisions(policy, IDEMPOTENT, 0))
                    .as("first timeout of a read, a CAS write, a plain write")
                    .containsOnly(RetryDecision.RETRY_NEXT);
            assertThat(decisions(policy, IDEMPOTENT, 1))
                    .as("a second timeout is the answer")
                    .containsOnly(RetryDecision.RETHROW);
        }
    }

    @Test
    void should_never_repeat_a_statement_that_is_not_idempotent() {
        assertThat(decisions(session.getContext().getRetryPolicy("default"), NOT_IDEMPOTENT, 0))
                .containsOnly(RetryDecision.RETHROW);
    }

    /** The policy's decisions on a read timeout, a CAS write timeout and a plain write timeout, 1 of 2 replicas answering. */
    private static List<RetryDecision> decisions(RetryPolicy policy, SimpleStatement statement, int retryCount) {
        return Stream.of(
                        policy.onReadTimeoutVerdict(
                                statement, DefaultConsistencyLevel.LOCAL_QUORUM, 2, 1, false, retryCount),
                        policy.onWriteTimeoutVerdict(
                                statement,
                                DefaultConsistencyLevel.LOCAL_SERIAL,
                                DefaultWriteType.CAS,
                                2,
                                1,
                                retryCount),
                        policy.onWriteTimeoutVerdict(
                                statement,
                                DefaultConsistencyLevel.LOCAL_QUORUM,
                                DefaultWriteType.SIMPLE,
                                2,
                                1,
                                retryCount))
                .map(RetryVerdict::getRetryDecision)
                .toList();
    }

    /** Cassandra's own timeouts, as the node reports them, end before the driver gives up. */
    @Test
    void should_wait_longer_than_cassandra_does() {
        Duration driver =
                session.getContext().getConfig().getDefaultProfile().getDuration(DefaultDriverOption.REQUEST_TIMEOUT);
        for (String timeout : new String[] {"read_request_timeout", "write_request_timeout"}) {
            String value = session.execute(SimpleStatement.newInstance(
                            "SELECT value FROM system_views.settings WHERE name = ?", timeout))
                    .one()
                    .getString("value");
            Duration cassandra = Duration.ofMillis(Long.parseLong(value.replace("ms", "")));
            assertThat(driver).as(timeout + " " + value).isGreaterThan(cassandra);
        }
    }
}
