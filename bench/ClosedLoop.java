import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The closed-loop load of bin/inbox-bench and bin/aged-soak (programs launched from source by JDK 25,
 * which compiles the files of this folder they name): a fixed number of requests in flight for a
 * time, each latency measured from when its request was sent; anything but a 200 counts as failed.
 */
final class ClosedLoop {
    private ClosedLoop() {}

    /** One run: the latencies of the 200s, sorted, in nanoseconds; the failures by status or exception. */
    record Result(long[] sorted, double seconds, Map<String, Integer> failures) {
        double perSecond() {
            return sorted.length / seconds;
        }

        /** The latency at quantile {@code q}, in milliseconds. */
        double ms(double q) {
            return sorted.length == 0
                    ? Double.NaN
                    : sorted[(int) Math.min(sorted.length - 1, Math.floor(q * sorted.length))] / 1e6;
        }

        int failed() {
            return failures.values().stream().mapToInt(Integer::intValue).sum();
        }
    }

    static Result run(HttpClient http, HttpRequest request, int inFlight, int seconds) throws InterruptedException {
        long end = System.nanoTime() + seconds * 1_000_000_000L;
        long[] latencies = new long[4_000_000];
        AtomicInteger count = new AtomicInteger();
        Map<String, Integer> failures = new ConcurrentSkipListMap<>();
        Semaphore slots = new Semaphore(inFlight);
        long t0 = System.nanoTime();
        while (System.nanoTime() < end) {
            slots.acquire();
            long sent = System.nanoTime();
            http.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((r, e) -> {
                if (e != null || r.statusCode() != 200) {
                    failures.merge(
                            e != null ? e.getClass().getSimpleName() : Integer.toString(r.statusCode()),
                            1,
                            Integer::sum);
                } else {
                    int i = count.getAndIncrement();
                    if (i < latencies.length) {
                        latencies[i] = System.nanoTime() - sent;
                    }
                }
                slots.release();
            });
        }
        slots.acquire(inFlight);
        double elapsed = (System.nanoTime() - t0) / 1e9;
        long[] sorted = Arrays.copyOf(latencies, Math.min(count.get(), latencies.length));
        Arrays.sort(sorted);
        return new Result(sorted, elapsed, failures);
    }

    static double median(double[] values) {
        double[] v = values.clone();
        Arrays.sort(v);
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }
}
