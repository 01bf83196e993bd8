import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * GET /inbox at five sizes (issue 15, goal 1): 5 vs 100,000 unread messages in one conversation,
 * and 10 vs 60 vs 1,000 conversations (60: a first page of 50 that is barely full, so 1,000 vs 60
 * compares pages of equal size and 1,000 vs 10 adds the page's 40 more entries). Seeds the inbox rows straight through the driver (the rows sends
 * leave: a summary per conversation counting its unread messages, and the first message under the
 * one before it, messages_by_previous), then runs the sizes in
 * turn, several rounds alternated (the machine is shared and noisy), and prints req/s, p50 and p99
 * of each run and the median over the rounds. Closed model: CONCURRENCY requests in flight, latency
 * from when each request was sent. Run by bin/inbox-bench, which starts the service.
 */
public class InboxBench {
    static final int CONCURRENCY = Integer.getInteger("concurrency", 16);
    static final int SECONDS = Integer.getInteger("seconds", 8);
    static final int ROUNDS = Integer.getInteger("rounds", 3);
    /** -Daged=N: instead of the seeded sizes, an inbox aged through the routes by N messages (see aged()). */
    static final int AGED = Integer.getInteger("aged", 0);
    /** In the aged mode, the owner marks a conversation read after this many of its messages. */
    static final int MARK_READ_EVERY = Integer.getInteger("mark-read-every", 1000);

    record Size(String name, String user, int conversations, int unread) {}

    /** cpu: CPU milliseconds per request of each process named by -Dcpu-pids (Cassandra, the service). */
    record Run(double perSecond, double p50, double p99, double[] cpu) {}

    /**
     * name=pid pairs (bin/inbox-bench passes Cassandra's and the service's): CPU time per request from
     * /proc, which says where a page's time goes and, unlike req/s, hardly moves when others load the machine.
     */
    static final String[][] PIDS = System.getProperty("cpu-pids", "").isBlank()
            ? new String[0][]
            : Arrays.stream(System.getProperty("cpu-pids").split(","))
                    .map(p -> p.split("="))
                    .toArray(String[][]::new);

    public static void main(String[] args) throws Exception {
        String base = System.getProperty("base-url", "http://localhost:18480");
        String keyspace = System.getProperty("keyspace", "cql_patterns");
        String[] contact = System.getProperty("contact", "127.0.0.1:19442").split(":");
        String tag = Long.toString(System.currentTimeMillis() % 1_000_000, 36);
        if (AGED > 0) {
            aged(HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build(), base, tag);
            return;
        }
        List<Size> sizes = List.of(
                new Size("5 unread, 1 conversation", "u5-" + tag, 1, 5),
                new Size("100,000 unread, 1 conversation", "u100k-" + tag, 1, 100_000),
                new Size("10 conversations, 1 unread each", "c10-" + tag, 10, 10),
                new Size("60 conversations, 1 unread each", "c60-" + tag, 60, 60),
                new Size("1,000 conversations, 1 unread each", "c1000-" + tag, 1000, 1000));
        try (CqlSession session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(contact[0], Integer.parseInt(contact[1])))
                .withLocalDatacenter("datacenter1")
                .withKeyspace(keyspace)
                .build()) {
            for (Size size : sizes) {
                long t0 = System.nanoTime();
                seed(session, size);
                System.out.printf("seeded %-36s in %.1f s%n", size.name(), (System.nanoTime() - t0) / 1e9);
            }
        }
        HttpClient http =
                HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
        List<List<Run>> runs = rounds(http, base, sizes);
        // The goal's ratios (within 1.2x): the larger size against the smaller, in p50 and in throughput.
        System.out.println();
        ratio(sizes, runs, 1, 0);
        ratio(sizes, runs, 4, 2);
        ratio(sizes, runs, 4, 3);
    }

    /**
     * An inbox aged through the service's own routes, against a new one: two owners, each in 10 1:1
     * conversations; the new one gets 5 messages in each, the aged one AGED messages in all, each
     * conversation's sender sending in turn (10 in flight, one per conversation: no two sends of one
     * conversation at once, the case that left a tombstone per message in inbox_by_activity), its owner
     * marking read every MARK_READ_EVERY messages and before the last 5. Then GET /inbox of both,
     * alternated, and the aged/new ratio of the medians.
     */
    static void aged(HttpClient http, String base, String tag) throws Exception {
        String root = System.getProperty("bench.root", ".");
        List<Size> sizes = List.of(
                new Size("new: 10 conversations, 5 messages each", "new-" + tag, 10, 50),
                new Size(String.format("aged: 10 conversations, %,d messages", AGED), "aged-" + tag, 10, AGED));
        for (Size size : sizes) {
            call(
                    http,
                    base,
                    root,
                    size.user(),
                    "POST",
                    "/users",
                    "{\"username\":\"" + size.user() + "\",\"email\":\"" + size.user() + "@bench.example\"}");
            String[] senders = new String[size.conversations()];
            String[] ids = new String[size.conversations()];
            for (int c = 0; c < senders.length; c++) {
                senders[c] = size.user() + "-s" + c;
                call(
                        http,
                        base,
                        root,
                        senders[c],
                        "POST",
                        "/users",
                        "{\"username\":\"" + senders[c] + "\",\"email\":\"" + senders[c] + "@bench.example\"}");
                String body = call(
                        http,
                        base,
                        root,
                        senders[c],
                        "POST",
                        "/conversations",
                        "{\"members\":[\"" + size.user() + "\"]}");
                ids[c] = body.replaceAll("(?s).*\"id\"\\s*:\\s*\"([^\"]+)\".*", "$1");
            }
            long t0 = System.nanoTime();
            AtomicInteger sent = new AtomicInteger();
            List<Thread> threads = new ArrayList<>();
            int perConversation = size.unread() / size.conversations();
            for (int c = 0; c < ids.length; c++) {
                int at = c;
                Thread t = new Thread(() -> {
                    for (int m = 0; m < perConversation; m++) {
                        // The owner reads every MARK_READ_EVERY messages, and once more before the last 5,
                        // so both owners end with 5 unread in each conversation.
                        if (m > 0 && m % MARK_READ_EVERY == 0 || m == perConversation - 5) {
                            call(http, base, root, size.user(), "POST", "/conversations/" + ids[at] + "/read", "");
                        }
                        call(
                                http,
                                base,
                                root,
                                senders[at],
                                "POST",
                                "/conversations/" + ids[at] + "/messages",
                                "{\"content\":\"message " + m + "\"}");
                        int done = sent.incrementAndGet();
                        if (done % Math.max(1, size.unread() / 10) == 0) {
                            System.out.printf(
                                    "  %s: %,d messages sent in %.0f s%n",
                                    size.user(), done, (System.nanoTime() - t0) / 1e9);
                        }
                    }
                });
                t.start();
                threads.add(t);
            }
            for (Thread t : threads) {
                t.join();
            }
            System.out.printf(
                    "aged %-44s %,d sends in %.1f s%n", size.name(), sent.get(), (System.nanoTime() - t0) / 1e9);
        }
        List<List<Run>> runs = rounds(http, base, sizes);
        System.out.println();
        ratio(sizes, runs, 1, 0);
    }

    /** One call as {@code username}; answers the body, and stops the bench on anything but a 2xx. */
    static String call(
            HttpClient http, String base, String root, String username, String method, String path, String json) {
        try {
            String token = TOKENS.computeIfAbsent(username, u -> token(root, u));
            HttpRequest request = HttpRequest.newBuilder(URI.create(base + path))
                    .header("Authorization", "Bearer " + token)
                    .header("Content-Type", "application/json")
                    .method(method, HttpRequest.BodyPublishers.ofString(json))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() / 100 != 2) {
                throw new IllegalStateException(
                        method + " " + path + " answered " + response.statusCode() + ": " + response.body());
            }
            return response.body();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static final java.util.Map<String, String> TOKENS = new java.util.concurrent.ConcurrentHashMap<>();

    static String token(String root, String username) {
        try {
            return new String(new ProcessBuilder(root + "/bin/token", username)
                            .redirectErrorStream(true)
                            .start()
                            .getInputStream()
                            .readAllBytes())
                    .strip();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    /**
     * A warm-up of each size, then ROUNDS rounds of SECONDS each, sizes alternated (the machine is
     * shared and noisy); prints every run and the medians, and answers the runs of each size.
     */
    static List<List<Run>> rounds(HttpClient http, String base, List<Size> sizes) throws Exception {
        List<List<Run>> runs = new ArrayList<>();
        sizes.forEach(s -> runs.add(new ArrayList<>()));
        for (Size size : sizes) {
            measure(http, base, size, 2); // warm-up
        }
        for (int round = 0; round < ROUNDS; round++) {
            for (int i = 0; i < sizes.size(); i++) {
                Run run = measure(http, base, sizes.get(i), SECONDS);
                runs.get(i).add(run);
                System.out.printf(
                        "round %d  %-44s %8.0f req/s  p50 %7.2f ms  p99 %7.2f ms%s%n",
                        round + 1, sizes.get(i).name(), run.perSecond(), run.p50(), run.p99(), cpu(run.cpu()));
            }
        }
        System.out.printf(
                "%nmedians over %d rounds, %d in flight, %d s each, GET /inbox (first page, limit 50):%n",
                ROUNDS, CONCURRENCY, SECONDS);
        for (int i = 0; i < sizes.size(); i++) {
            List<Run> r = runs.get(i);
            double[] cpu = new double[PIDS.length];
            for (int p = 0; p < PIDS.length; p++) {
                int at = p;
                cpu[p] = ClosedLoop.median(
                        r.stream().mapToDouble(run -> run.cpu()[at]).toArray());
            }
            System.out.printf(
                    "| %-44s | %8.0f req/s | p50 %7.2f ms | p99 %7.2f ms |%s%n",
                    sizes.get(i).name(),
                    ClosedLoop.median(r.stream().mapToDouble(Run::perSecond).toArray()),
                    ClosedLoop.median(r.stream().mapToDouble(Run::p50).toArray()),
                    ClosedLoop.median(r.stream().mapToDouble(Run::p99).toArray()),
                    cpu(cpu));
        }
        return runs;
    }

    static void ratio(List<Size> sizes, List<List<Run>> runs, int larger, int smaller) {
        double p50 = ClosedLoop.median(
                        runs.get(larger).stream().mapToDouble(Run::p50).toArray())
                / ClosedLoop.median(
                        runs.get(smaller).stream().mapToDouble(Run::p50).toArray());
        double rate = ClosedLoop.median(
                        runs.get(smaller).stream().mapToDouble(Run::perSecond).toArray())
                / ClosedLoop.median(
                        runs.get(larger).stream().mapToDouble(Run::perSecond).toArray());
        System.out.printf(
                "%-36s vs %-36s p50 %.2fx  req/s %.2fx%n",
                sizes.get(larger).name(), sizes.get(smaller).name(), p50, rate);
    }

    /**
     * What CreateConversation and SendMessage leave: in inbox_by_user one summary per conversation
     * (last message from the partner) counting its unread messages (others_sent, others_read 0: the
     * messages are spread over the conversations), and in messages_by_previous its first message,
     * which the inbox reads as the first unread one.
     */
    static void seed(CqlSession session, Size size) throws Exception {
        PreparedStatement summary = session.prepare("INSERT INTO inbox_by_user (username, kind, conversation_id, "
                + "message_id, title, partner, direct, joined_at, last_message_id, last_sender, last_preview, "
                + "others_sent, others_read) "
                + "VALUES (?, 0, ?, 00000000-0000-1000-8000-000000000000, null, ?, true, ?, ?, ?, ?, ?, 0)");
        PreparedStatement first = session.prepare("INSERT INTO messages_by_previous (conversation_id, "
                + "previous_message_id, message_id, sender) VALUES (?, ?, ?, ?)");
        UUID neverRead = Uuids.startOf(0);
        long start = System.currentTimeMillis() - 3_600_000L;
        int conversations = size.conversations();
        Semaphore inFlight = new Semaphore(64);
        List<CompletableFuture<?>> writes = new ArrayList<>();
        for (int c = 0; c < conversations; c++) {
            UUID id = UUID.randomUUID();
            UUID last = Uuids.startOf(start + 1000L * (c + 1) + size.unread());
            long unread = size.unread() / conversations + (c < size.unread() % conversations ? 1 : 0);
            inFlight.acquire();
            writes.add(session.executeAsync(summary.bind(
                            size.user(),
                            id,
                            "partner" + c,
                            Instant.ofEpochMilli(start),
                            last,
                            "partner" + c,
                            "message " + c,
                            unread))
                    .toCompletableFuture()
                    .whenComplete((r, e) -> inFlight.release()));
            if (unread > 0) {
                inFlight.acquire();
                writes.add(session.executeAsync(first.bind(id, neverRead, Uuids.startOf(start + c), "partner" + c))
                        .toCompletableFuture()
                        .whenComplete((r, e) -> inFlight.release()));
            }
        }
        CompletableFuture.allOf(writes.toArray(new CompletableFuture[0])).join();
    }

    static Run measure(HttpClient http, String base, Size size, int seconds) throws Exception {
        String token = TOKENS.computeIfAbsent(size.user(), u -> token(System.getProperty("bench.root", "."), u));
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/inbox?limit=50"))
                .header("Authorization", "Bearer " + token)
                .GET()
                .build();
        long[] ticks = ticks();
        ClosedLoop.Result r = ClosedLoop.run(http, request, CONCURRENCY, seconds);
        if (r.failed() > 0) {
            System.out.println("  errors: " + r.failed() + " " + r.failures());
        }
        long[] after = ticks();
        double[] cpu = new double[ticks.length];
        for (int p = 0; p < ticks.length; p++) {
            cpu[p] = (after[p] - ticks[p]) * 10.0 / Math.max(1, r.sorted().length); // USER_HZ 100: a tick is 10 ms
        }
        return new Run(r.perSecond(), r.ms(0.50), r.ms(0.99), cpu);
    }

    /** utime + stime of each process of PIDS, in clock ticks (fields 14 and 15 of /proc/PID/stat). */
    static long[] ticks() throws Exception {
        long[] ticks = new long[PIDS.length];
        for (int p = 0; p < PIDS.length; p++) {
            String stat = Files.readString(Path.of("/proc", PIDS[p][1], "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" "); // f[0] is field 3
            ticks[p] = Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
        return ticks;
    }

    static String cpu(double[] msPerRequest) {
        StringBuilder out = new StringBuilder();
        for (int p = 0; p < msPerRequest.length; p++) {
            out.append(String.format("  %s %.3f", PIDS[p][0], msPerRequest[p]));
        }
        return msPerRequest.length == 0 ? "" : out.append(" cpu ms/req").toString();
    }
}
