package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Hedged runs, as the service prepares statements: a node that never answers costs one delay, slow
 * nodes that answer still succeed, and a failure another run would meet too ends it at once.
 */
class HedgedTest {
    private static final Duration DELAY = Duration.ofMillis(100);

    /** The runs started so far, each answering as {@code answer} says for its number (from 1). */
    private static final class Calls {
        final List<Long> startedAt = new CopyOnWriteArrayList<>();
        final Function<Integer, CompletionStage<String>> answer;

        Calls(Function<Integer, CompletionStage<String>> answer) {
            this.answer = answer;
        }

        CompletionStage<String> call() {
            startedAt.add(System.nanoTime());
            return answer.apply(startedAt.size());
        }
    }

    private static CompletionStage<String> after(Duration wait, String value) {
        return CompletableFuture.supplyAsync(
                () -> value, CompletableFuture.delayedExecutor(wait.toMillis(), TimeUnit.MILLISECONDS));
    }

    private static CompletionStage<String> never() {
        return new CompletableFuture<>();
    }

    private static String await(CompletionStage<String> stage) throws Exception {
        return stage.toCompletableFuture().get(10, TimeUnit.SECONDS);
    }

    @Test
    void should_ask_the_next_node_after_the_delay_when_the_first_never_answers() throws Exception {
        Calls calls = new Calls(n -> n == 1 ? never() : after(Duration.ofMillis(10), "second"));

        assertThat(await(Hedged.first(calls::call, 3, DELAY, e -> true))).isEqualTo("second");
        assertThat(calls.startedAt).hasSize(2);
        assertThat(calls.startedAt.get(1) - calls.startedAt.get(0))
                .as("the second run started after the delay")
                .isGreaterThanOrEqualTo(DELAY.toNanos());
    }

    @Test
    void should_succeed_when_every_node_is_slower_than_the_delay_but_answers() throws Exception {
        // As on a loaded machine: every node answers after 5 delays. Attempts each bounded by the
        // delay (one after the other) would all have failed. Which answer comes first is up to the
        // threads that complete them, on a loaded machine too: any of them is a success.
        Calls calls = new Calls(n -> after(DELAY.multipliedBy(5), "answer " + n));

        assertThat(await(Hedged.first(calls::call, 3, DELAY, e -> true))).isIn("answer 1", "answer 2", "answer 3");
        assertThat(calls.startedAt).hasSize(3);
    }

    @Test
    void should_ask_the_next_node_at_once_when_a_run_fails() throws Exception {
        Calls calls = new Calls(n ->
                n == 1 ? CompletableFuture.failedFuture(new TimeoutException("no node")) : after(Duration.ZERO, "ok"));

        long start = System.nanoTime();
        assertThat(await(Hedged.first(calls::call, 3, Duration.ofMinutes(1), e -> true)))
                .isEqualTo("ok");
        assertThat(System.nanoTime() - start)
                .as("no wait for the delay")
                .isLessThan(Duration.ofSeconds(5).toNanos());
    }

    @Test
    void should_fail_at_once_with_a_failure_another_node_would_meet_too() {
        IllegalArgumentException syntax = new IllegalArgumentException("syntax error");
        Calls calls = new Calls(n -> CompletableFuture.failedFuture(syntax));

        assertThatThrownBy(() -> await(Hedged.first(calls::call, 3, DELAY, e -> e instanceof TimeoutException)))
                .isInstanceOf(ExecutionException.class)
                .hasCause(syntax);
        assertThat(calls.startedAt).hasSize(1);
    }

    @Test
    void should_fail_with_the_last_failure_once_every_run_failed() {
        Calls calls = new Calls(n -> CompletableFuture.failedFuture(new TimeoutException("run " + n)));

        assertThatThrownBy(() -> await(Hedged.first(calls::call, 3, DELAY, e -> true)))
                .isInstanceOf(ExecutionException.class)
                .hasMessageContaining("run 3");
        assertThat(calls.startedAt).hasSize(3);
    }
}
