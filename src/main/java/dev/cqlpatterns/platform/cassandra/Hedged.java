package dev.cqlpatterns.platform.cassandra;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The first success of up to {@code attempts} runs of one call, each started {@code delay} after the
 * one before while none has answered, or at once when one fails in a way another run may not: a
 * hedged request. A run that never answers then costs the delay, not its timeout, and runs that are
 * all slow but answering still succeed. Fails with the last failure once every run has failed, or at
 * once with one that another run would meet too.
 */
final class Hedged<T> {
    private final Supplier<CompletionStage<T>> call;
    private final int attempts;
    private final Duration delay;
    private final Predicate<Throwable> worthAnother;
    private final CompletableFuture<T> first = new CompletableFuture<>();
    private int started;
    private int failed;

    private Hedged(Supplier<CompletionStage<T>> call, int attempts, Duration delay, Predicate<Throwable> worthAnother) {
        this.call = call;
        this.attempts = attempts;
        this.delay = delay;
        this.worthAnother = worthAnother;
    }

    static <T> CompletionStage<T> first(
            Supplier<CompletionStage<T>> call, int attempts, Duration delay, Predicate<Throwable> worthAnother) {
        Hedged<T> hedged = new Hedged<>(call, Math.max(1, attempts), delay, worthAnother);
        hedged.start();
        return hedged.first;
    }

    private synchronized void start() {
        if (first.isDone() || started == attempts) {
            return;
        }
        started++;
        if (started < attempts) {
            CompletableFuture.delayedExecutor(delay.toNanos(), TimeUnit.NANOSECONDS)
                    .execute(this::start);
        }
        call.get().whenComplete((value, failure) -> {
            if (failure == null) {
                first.complete(value);
            } else {
                failed(
                        failure instanceof CompletionException && failure.getCause() != null
                                ? failure.getCause()
                                : failure);
            }
        });
    }

    private synchronized void failed(Throwable failure) {
        failed++;
        if (!worthAnother.test(failure)) {
            first.completeExceptionally(failure);
        } else if (started < attempts) {
            start();
        } else if (failed == started) {
            first.completeExceptionally(failure);
        }
    }
}
