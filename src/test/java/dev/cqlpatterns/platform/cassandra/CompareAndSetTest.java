package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DriverExecutionProfile;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.ExecutionInfo;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.testsupport.ConditionalWriteFaults;
import io.quarkus.test.junit.QuarkusTest;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The compare-and-set helper on a real table (users_by_username), with unknown outcomes injected
 * through its test seam: a write that committed and then ended with CASWriteUnknownException is
 * applied, one that never ran is retried, and a lost race ends in 409 after cas-attempts.
 */
@QuarkusTest
class CompareAndSetTest {
    private static final Duration WAIT = Duration.ofSeconds(20);
    private static final String TABLE = "users_by_username";
    private static final Query CLAIM =
            Cql.query("INSERT INTO users_by_username (username, email, version) " + "VALUES (?, ?, 0) IF NOT EXISTS");
    private static final Query BUMP =
            Cql.query("UPDATE users_by_username SET email = ?, version = ? " + "WHERE username = ? IF version = ?");
    private static final Query CONDITIONAL_CLAIM = Cql.conditional(
            "INSERT INTO users_by_username (username, email, " + "version) VALUES (?, ?, 0) IF NOT EXISTS");
    private static final Query READ = Cql.idempotent("SELECT email, version FROM users_by_username WHERE username = ?");

    @Inject
    CompareAndSet cas;

    @Inject
    ConditionalWriteFaults faults;

    @Inject
    Cql cql;

    @Inject
    CassandraSettings settings;

    @AfterEach
    void clear() {
        faults.clearFaults();
    }

    private static String name() {
        return "cas" + UUID.randomUUID().toString().substring(0, 8);
    }

    private Uni<Boolean> holds(String username, String email) {
        return cql.read(READ, cql.serially(), username).map(rs -> {
            var row = rs.one();
            return row != null && email.equals(row.getString("email"));
        });
    }

    /** Claims {@code user} for mine@example.com, the write ending "result is unknown". */
    private CompareAndSet.Outcome claimUnknown(String user, boolean committed) {
        faults.injectUnknownOutcome(TABLE, committed, 1);
        return cas.conditional(TABLE, cql.write(CLAIM, user, "mine@example.com"), () -> holds(user, "mine@example.com"))
                .await()
                .atMost(WAIT);
    }

    @Test
    void should_take_a_committed_write_with_an_unknown_outcome_as_applied() {
        String user = name();
        assertThat(claimUnknown(user, true).applied()).isTrue();
        assertThat(holds(user, "mine@example.com").await().atMost(WAIT)).isTrue();
    }

    @Test
    void should_take_a_write_that_did_not_commit_as_not_applied_and_retry_it() {
        String user = name();
        assertThat(claimUnknown(user, false).applied()).isFalse();

        // The loop: the first claim never ran (unknown, then found not to hold), the second one lands.
        faults.injectUnknownOutcome(TABLE, false, 1);
        AtomicInteger reads = new AtomicInteger();
        String result = cas.<Boolean, String>run(
                        attempt -> {
                            reads.incrementAndGet();
                            return cql.read(READ, cql.serially(), user).map(rs -> rs.one() != null);
                        },
                        exists -> exists
                                ? CompareAndSet.Step.done(Uni.createFrom().item("taken"))
                                : CompareAndSet.Step.write(
                                        TABLE,
                                        cql.write(CLAIM, user, "mine@example.com"),
                                        () -> holds(user, "mine@example.com"),
                                        () -> Uni.createFrom().item("claimed")),
                        () -> ProblemException.conflict("busy"))
                .await()
                .atMost(WAIT);
        assertThat(result).isEqualTo("claimed");
        assertThat(reads).hasValue(2);
    }

    /**
     * The write commits, and Cassandra answers "not applied" with our own values (its coordinator
     * lost a ballot, then finished its own accepted proposal before reading the condition): applied.
     */
    @Test
    void should_take_not_applied_with_our_own_values_as_applied() {
        String user = name();
        faults.injectOwnWriteNotApplied(TABLE, 1);
        CompareAndSet.Outcome outcome = cas.conditional(
                        TABLE, cql.write(CLAIM, user, "mine@example.com"), () -> holds(user, "mine@example.com"))
                .await()
                .atMost(WAIT);
        assertThat(outcome.applied()).isTrue();
    }

    @Test
    void should_take_not_applied_as_lost_with_the_answer_when_the_row_is_someone_elses() {
        String user = name();
        cql.write(CLAIM, user, "theirs@example.com").await().atMost(WAIT);
        CompareAndSet.Outcome outcome = cas.conditional(
                        TABLE, cql.write(CLAIM, user, "mine@example.com"), () -> holds(user, "mine@example.com"))
                .await()
                .atMost(WAIT);
        assertThat(outcome.applied()).isFalse();
        assertThat(outcome.answer().one().getString("email")).isEqualTo("theirs@example.com");
    }

    /**
     * The driver sent a {@link Cql#conditional} write to two coordinators (the first one paused):
     * the run that answered found the other run's row, "not applied". That is our write.
     */
    @Test
    void should_take_not_applied_after_a_second_execution_of_our_own_write_as_applied() {
        String user = name();
        cql.write(CLAIM, user, "mine@example.com").await().atMost(WAIT);
        Uni<AsyncResultSet> secondRun =
                cql.write(CLAIM, user, "mine@example.com").map(CompareAndSetTest::answeredBySecondExecution);
        CompareAndSet.Outcome outcome = cas.conditional(TABLE, secondRun, () -> holds(user, "mine@example.com"))
                .await()
                .atMost(WAIT);
        assertThat(outcome.applied()).isTrue();
    }

    @Test
    void should_take_not_applied_after_a_second_execution_as_lost_when_the_row_is_someone_elses() {
        String user = name();
        cql.write(CLAIM, user, "theirs@example.com").await().atMost(WAIT);
        Uni<AsyncResultSet> secondRun =
                cql.write(CLAIM, user, "mine@example.com").map(CompareAndSetTest::answeredBySecondExecution);
        CompareAndSet.Outcome outcome = cas.conditional(TABLE, secondRun, () -> holds(user, "mine@example.com"))
                .await()
                .atMost(WAIT);
        assertThat(outcome.applied()).isFalse();
        assertThat(outcome.answer().one().getString("email")).isEqualTo("theirs@example.com");
    }

    @Test
    void should_run_conditional_statements_in_a_profile_that_speculates_later_than_plain_ones() {
        var context = cql.session().await().atMost(WAIT).getContext();
        var conditional = context.getSpeculativeExecutionPolicy(Cql.CONDITIONAL_PROFILE);
        var plain = context.getSpeculativeExecutionPolicy(DriverExecutionProfile.DEFAULT_NAME);
        var statement =
                cql.bind(CONDITIONAL_CLAIM, name(), "x@example.com").await().atMost(WAIT);
        assertThat(statement.getExecutionProfileName()).isEqualTo(Cql.CONDITIONAL_PROFILE);
        assertThat(statement.isIdempotent()).isTrue();
        long conditionalDelay = conditional.nextExecution(null, null, statement, 1);
        long plainDelay = plain.nextExecution(null, null, statement, 1);
        assertThat(conditionalDelay).isGreaterThan(plainDelay).isPositive();
        assertThat(plainDelay).isPositive();
    }

    @Test
    void should_read_at_the_serial_level_in_the_profile_of_conditional_writes() {
        // A serial read is a Paxos round: a second coordinator as early as a plain read's would
        // contend with the first for the partition.
        var ran = cql.read(READ, cql.serially(), name())
                .await()
                .atMost(WAIT)
                .getExecutionInfo()
                .getStatement();
        assertThat(ran.getConsistencyLevel().isSerial()).isTrue();
        assertThat(ran.getExecutionProfileName()).isEqualTo(Cql.CONDITIONAL_PROFILE);
    }

    /** The answer as the driver gives it when a speculative execution was started. */
    private static AsyncResultSet answeredBySecondExecution(AsyncResultSet answer) {
        ExecutionInfo info = answer.getExecutionInfo();
        ExecutionInfo twice = (ExecutionInfo) Proxy.newProxyInstance(
                ExecutionInfo.class.getClassLoader(),
                new Class<?>[] {ExecutionInfo.class},
                (proxy, method, args) ->
                        method.getName().equals("getSpeculativeExecutionCount") ? 1 : invoke(method, info, args));
        return (AsyncResultSet) Proxy.newProxyInstance(
                AsyncResultSet.class.getClassLoader(),
                new Class<?>[] {AsyncResultSet.class},
                (proxy, method, args) ->
                        method.getName().equals("getExecutionInfo") ? twice : invoke(method, answer, args));
    }

    private static Object invoke(Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    @Test
    void should_not_take_someone_elses_write_as_ours() {
        String user = name();
        cql.write(CLAIM, user, "theirs@example.com").await().atMost(WAIT);
        assertThat(claimUnknown(user, true).applied()).isFalse();
    }

    @Test
    void should_answer_409_after_cas_attempts_lost_races() {
        String user = name();
        cql.write(CLAIM, user, "a@example.com").await().atMost(WAIT);
        AtomicInteger writes = new AtomicInteger();
        // Every write expects a version that is never there: each attempt loses.
        Uni<String> loop = cas.<Long, String>run(
                attempt -> Uni.createFrom().item(-1L),
                expected -> {
                    writes.incrementAndGet();
                    return CompareAndSet.Step.write(
                            TABLE,
                            cql.write(BUMP, "b@example.com", 1L, user, expected),
                            () -> Uni.createFrom().item(false),
                            () -> Uni.createFrom().item("applied"));
                },
                () -> ProblemException.conflict("busy"));
        Assertions.assertThatThrownBy(() -> loop.await().atMost(WAIT))
                .isInstanceOf(ProblemException.class)
                .hasMessageContaining("busy");
        assertThat(writes).hasValue(settings.casAttempts());
    }

    @Test
    void should_take_a_committed_write_whose_every_coordinator_timed_out_as_applied() {
        // A retry on the next coordinator (NextCoordinatorRetry) or a speculative execution that
        // fails too ends the write with AllNodesFailedException, each coordinator's timeout in it:
        // a fresh-clone CI run answered such a send 503 right after a paused node came back.
        String user = name();
        Node node = someNode();
        AllNodesFailedException bothTimedOut = AllNodesFailedException.fromErrors(List.<Map.Entry<Node, Throwable>>of(
                Map.entry(node, casTimeout(node)), Map.entry(node, casTimeout(node))));
        CompareAndSet.Outcome outcome = cas.conditional(
                        TABLE,
                        cql.write(CLAIM, user, "mine@example.com")
                                .chain(committed -> Uni.createFrom().failure(bothTimedOut)),
                        () -> holds(user, "mine@example.com"))
                .await()
                .atMost(WAIT);
        assertThat(outcome.applied()).isTrue();
    }

    private Node someNode() {
        return cql.session()
                .await()
                .atMost(WAIT)
                .getMetadata()
                .getNodes()
                .values()
                .iterator()
                .next();
    }

    private static WriteTimeoutException casTimeout(Node coordinator) {
        return new WriteTimeoutException(coordinator, DefaultConsistencyLevel.LOCAL_SERIAL, 1, 2, DefaultWriteType.CAS);
    }

    @Test
    void should_know_which_failures_leave_a_conditional_write_unknown() {
        assertThat(CompareAndSet.unknownOutcome(
                        new CASWriteUnknownException(null, DefaultConsistencyLevel.LOCAL_SERIAL, 0, 2)))
                .isTrue();
        assertThat(CompareAndSet.unknownOutcome(new WriteTimeoutException(
                        null, DefaultConsistencyLevel.LOCAL_SERIAL, 0, 2, DefaultWriteType.CAS)))
                .isTrue();
        assertThat(CompareAndSet.unknownOutcome(
                        new ReadTimeoutException(null, DefaultConsistencyLevel.LOCAL_SERIAL, 0, 2, false)))
                .isTrue();
        assertThat(CompareAndSet.unknownOutcome(AllNodesFailedException.fromErrors(
                        List.<Map.Entry<Node, Throwable>>of(Map.entry(someNode(), casTimeout(null))))))
                .isTrue();
        // Refused before anything was written: a plain failure (503), nothing to learn.
        assertThat(CompareAndSet.unknownOutcome(
                        AllNodesFailedException.fromErrors(List.<Map.Entry<Node, Throwable>>of(Map.entry(
                                someNode(),
                                new UnavailableException(null, DefaultConsistencyLevel.LOCAL_QUORUM, 2, 1))))))
                .isFalse();
        assertThat(CompareAndSet.unknownOutcome(
                        new UnavailableException(null, DefaultConsistencyLevel.LOCAL_QUORUM, 2, 1)))
                .isFalse();
        assertThat(CompareAndSet.unknownOutcome(
                        new ReadTimeoutException(null, DefaultConsistencyLevel.LOCAL_QUORUM, 0, 2, false)))
                .isFalse();
        assertThat(CompareAndSet.unknownOutcome(ProblemException.conflict("taken")))
                .isFalse();
    }
}
