package dev.cqlpatterns.testsupport;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;

/** Runs calls at the same moment, one thread each, for tests of races. */
public final class Concurrently {

    private Concurrently() {}

    /** Applies {@code call} to every input at once and returns the results in input order. */
    public static <I, T> List<T> run(List<I> inputs, Function<I, T> call) {
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService threads = Executors.newFixedThreadPool(inputs.size());
        try {
            List<CompletableFuture<T>> futures = inputs.stream()
                    .map(input -> CompletableFuture.supplyAsync(
                            () -> {
                                try {
                                    start.await();
                                } catch (InterruptedException e) {
                                    Thread.currentThread().interrupt();
                                    throw new IllegalStateException(e);
                                }
                                return call.apply(input);
                            },
                            threads))
                    .toList();
            start.countDown();
            return futures.stream().map(CompletableFuture::join).toList();
        } finally {
            threads.shutdown();
        }
    }
}
