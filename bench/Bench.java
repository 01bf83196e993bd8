import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiConsumer;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Load benchmark of cql-patterns: drives a running service (bin/run) through its query patterns and
 * prints one row per route: requests, errors by status, throughput, latency percentiles and the mean
 * X-Partitions-Read and X-Statements the service reports, then its heap before and after. It asserts
 * nothing: figures from a shared, noisy machine are for reading, never for failing a build, which is
 * why this lives outside the Maven test suite and CI.
 *
 * <p>Usage: {@code bin/bench [--base-url URL] [--concurrency 16] [--requests 2000] [--seed-size 500]}
 * (or BASE_URL, CONCURRENCY, REQUESTS, SEED_SIZE). JDK 17 only: {@code java bench/Bench.java ...}.
 *
 * <p>Every name carries a random run id, so runs never collide. Each row first sends a tenth of its
 * requests as warm-up (calls n.. of the same generator, not counted), then measures calls 0..n-1,
 * at most --concurrency in flight. Bearer tokens come from bin/token, once per user.
 */
public class Bench {
    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([^\"]+)\"");
    private static final int GROUPS = 10;
    private static final int TAGS = 10;
    private static final int SMALL = 10;

    /** One HTTP call; user is the bearer (null: anonymous), json the body (null: none). */
    record Call(String method, String path, String user, String json) {
        static Call get(String user, String path) {
            return new Call("GET", path, user, null);
        }

        static Call post(String user, String path, String json) {
            return new Call("POST", path, user, json);
        }

        static Call put(String user, String path, String json) {
            return new Call("PUT", path, user, json);
        }
    }

    record Options(String baseUrl, int concurrency, int requests, int seedSize) {
        private static final Set<String> NAMES = Set.of("base-url", "concurrency", "requests", "seed-size");

        static Options parse(String[] args) {
            Map<String, String> given = new TreeMap<>();
            for (int a = 0; a < args.length; a++) {
                String arg = args[a];
                if (arg.equals("-h") || arg.equals("--help")) {
                    System.out.println(
                            "usage: bin/bench [--base-url URL] [--concurrency 16] [--requests 2000] [--seed-size 500]");
                    System.exit(0);
                }
                int eq = arg.indexOf('=');
                String name = arg.substring(Math.min(2, arg.length()), eq > 0 ? eq : arg.length());
                if (!arg.startsWith("--") || !NAMES.contains(name)) {
                    fail(2, "unknown option " + arg + " (try --help)");
                }
                if (eq < 0 && a + 1 >= args.length) {
                    fail(2, arg + " needs a value");
                }
                given.put(name, eq > 0 ? arg.substring(eq + 1) : args[++a]);
            }
            String port = System.getenv().getOrDefault("PORT", "8080");
            String base = value(given, "base-url", "BASE_URL", "http://localhost:" + port)
                    .replaceAll("/+$", "");
            return new Options(
                    base,
                    number(given, "concurrency", 16, 1, 1024),
                    number(given, "requests", 2000, 20, 1_000_000),
                    // The service caps conversations per user at 1,000.
                    number(given, "seed-size", 500, SMALL + 1, 1000));
        }

        private static String value(Map<String, String> given, String name, String env, String otherwise) {
            String v = given.get(name);
            return v != null ? v : System.getenv().getOrDefault(env, otherwise);
        }

        private static int number(Map<String, String> given, String name, int otherwise, int min, int max) {
            String v = value(given, name, name.toUpperCase().replace('-', '_'), String.valueOf(otherwise));
            try {
                int n = Integer.parseInt(v);
                if (n >= min && n <= max) {
                    return n;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            fail(2, "--" + name + " must be a whole number from " + min + " to " + max + ", not " + v);
            return 0;
        }
    }

    /** What came back for one batch of calls. */
    static final class Stats {
        final long[] nanos;
        final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        final LongAdder partitions = new LongAdder();
        final LongAdder statements = new LongAdder();
        final LongAdder accounted = new LongAdder();
        long elapsedNanos;

        Stats(int n) {
            nanos = new long[n];
        }

        long errorCount() {
            return errors.values().stream().mapToLong(LongAdder::sum).sum();
        }

        /** "409x3 io x1", or "-" when every call answered 2xx. */
        String errorStatuses() {
            if (errors.isEmpty()) {
                return "-";
            }
            StringBuilder s = new StringBuilder();
            new TreeMap<>(errors)
                    .forEach((status, n) -> s.append(s.length() == 0 ? "" : " ")
                            .append(status)
                            .append('x')
                            .append(n.sum()));
            return s.toString();
        }

        static double percentileMs(long[] sorted, double p) {
            int rank = (int) Math.ceil(p * sorted.length) - 1;
            return sorted[Math.max(0, Math.min(sorted.length - 1, rank))] / 1e6;
        }

        double mean(LongAdder sum) {
            return accounted.sum() == 0 ? Double.NaN : (double) sum.sum() / accounted.sum();
        }
    }

    /** Heap and RSS of the service as /q/metrics reports them; NaN when absent. */
    record Memory(double heapUsed, double heapMax, double rss) {}

    private final Options options;
    private final String run = randomId();
    private final HttpClient http = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5))
            .build();
    private final Semaphore inFlight;
    private final Map<String, String> tokens = new ConcurrentHashMap<>();
    private final String tokenCommand = System.getProperty("bench.root", ".") + "/bin/token";
    private final List<Stats> rows = new ArrayList<>();

    /** Users 0..usersCreated-1 exist (POST /users answered 201). */
    private int usersCreated;

    Bench(Options options) {
        this.options = options;
        this.inFlight = new Semaphore(options.concurrency());
    }

    public static void main(String[] args) throws Exception {
        Bench bench = new Bench(Options.parse(args));
        bench.requireReady();
        bench.run();
    }

    void run() throws Exception {
        Memory before = memory();
        long start = System.nanoTime();
        int n = options.requests();
        System.out.printf(
                "cql-patterns bench: %s, %d in flight, %d requests per row, seed size %d, run id %s%n",
                options.baseUrl(), options.concurrency(), n, options.seedSize(), run);
        System.out.printf(
                "%-56s %8s %6s %8s %8s %8s %8s %8s %10s %10s  %s%n",
                "route",
                "requests",
                "errors",
                "req/s",
                "p50 ms",
                "p95 ms",
                "p99 ms",
                "max ms",
                "partitions",
                "statements",
                "error statuses");
        users(n);
        messenger(n);
        pastes(n);
        groups(n);
        songs(n);
        atAnySize(n);
        Memory after = memory();

        System.out.println();
        System.out.printf("%-14s %12s %12s %12s%n", "service memory", "heap used", "heap max", "RSS");
        System.out.printf(
                "%-14s %12s %12s %12s%n", "before", mib(before.heapUsed()), mib(before.heapMax()), mib(before.rss()));
        System.out.printf(
                "%-14s %12s %12s %12s%n", "after", mib(after.heapUsed()), mib(after.heapMax()), mib(after.rss()));
        long requests = rows.stream().mapToLong(s -> s.nanos.length).sum();
        long errors = rows.stream().mapToLong(Stats::errorCount).sum();
        System.out.printf(
                "bench: %d rows, %d measured requests, %d errors, %.0f s in all (warm-up and seeding included); "
                        + "heap used %s -> %s of %s max; RSS %s%n",
                rows.size(),
                requests,
                errors,
                (System.nanoTime() - start) / 1e9,
                mib(before.heapUsed()),
                mib(after.heapUsed()),
                mib(after.heapMax()),
                Double.isNaN(after.rss()) ? "not exposed by /q/metrics" : mib(after.rss()));
    }

    // ---- Phases -------------------------------------------------------------------------------

    /** POST /users, each as themselves: creates users 0..n-1 and the warm-up's n..n+warm-1. */
    private void users(int n) throws Exception {
        mintTokens(0, n + warmup(n));
        Stats stats = measure("POST /users", n, i -> newUser(i), null);
        usersCreated = n + warmup(n); // errors are in the row; later rows count on these users
        if (stats.errors.containsKey("401")) {
            say("tokens from " + tokenCommand + " were refused (401): run bin/bench from the checkout whose bin/run "
                    + "started the service, so both use the same .local key pair");
        }
    }

    /** Pairs of users (2p, 2p+1) talk; then sends, inbox, history and mark-read spread over the pairs. */
    private void messenger(int n) throws Exception {
        int pairs = n / 2;
        String[] conversations = new String[pairs + warmup(pairs)];
        measure(
                "POST /conversations",
                pairs,
                p -> Call.post(user(2 * p), "/conversations", json("members", List.of(user(2 * p + 1)))),
                (p, body) -> conversations[p] = id(body));
        // Call i goes to pair i % pairs, from or for member (i / pairs) % 2: each member in turn.
        IntFunction<String> member = i -> user(2 * (i % pairs) + (i / pairs) % 2);
        IntFunction<String> conversation = i -> "/conversations/" + conversations[i % pairs];
        measure(
                "POST /conversations/{id}/messages",
                n,
                i -> Call.post(
                        member.apply(i),
                        conversation.apply(i) + "/messages",
                        json("content", "Bench message " + i + ": are we still on for lunch?")),
                null);
        measure("GET /inbox?limit=20", n, i -> Call.get(user(i % n), "/inbox?limit=20"), null);
        measure(
                "GET /conversations/{id}/messages?limit=50",
                n,
                i -> Call.get(member.apply(i), conversation.apply(i) + "/messages?limit=50"),
                null);
        // The same member and conversation come back only every 2 * pairs calls: never two at once (409).
        // The warm-up marks the first tenth of them read, so those measured calls find nothing unread.
        measure(
                "POST /conversations/{id}/read",
                n,
                i -> Call.post(member.apply(i), conversation.apply(i) + "/read", null),
                null);
    }

    private void pastes(int n) throws Exception {
        String[] pastes = new String[n + warmup(n)];
        measure(
                "POST /pastes",
                n,
                i -> Call.post(
                        null,
                        "/pastes",
                        "{\"title\":\"bench " + run + " " + i + "\",\"body\":"
                                + quote("server { listen 80; } # paste " + i + " of run " + run)
                                + ",\"private\":false,\"expiresIn\":\"PT10M\"}"),
                (i, body) -> pastes[i] = id(body));
        measure("GET /pastes/{id}", n, i -> Call.get(null, "/pastes/" + pastes[i % n]), null);
        measure("GET /pastes?limit=20", n, i -> Call.get(null, "/pastes?limit=20"), null);
    }

    /** Ten groups; call i has user i % n join group (i % 10 + i / n) % 10, so a repeat joins another. */
    private void groups(int n) throws Exception {
        IntFunction<String> group = i -> "/groups/" + name("g" + (i % GROUPS + i / n) % GROUPS);
        measure(
                "PUT /groups/{group}/members/{username}",
                n,
                i -> Call.put(user(i % n), group.apply(i) + "/members/" + user(i % n), null),
                null);
        measure(
                "GET /groups/{group}/members?limit=50",
                n,
                i -> Call.get(user(i % n), group.apply(i) + "/members?limit=50"),
                null);
        measure(
                "GET /groups/{group}/members/latest?limit=20",
                n,
                i -> Call.get(user(i % n), group.apply(i) + "/members/latest?limit=20"),
                null);
    }

    /** A new song per call, on 20 artists, with two of ten tags each. */
    private void songs(int n) throws Exception {
        measure(
                "PUT /songs/{artist}/{album}/{song}",
                n,
                i -> Call.put(
                        user(i % n),
                        "/songs/" + name("artist" + i % 20) + "/album-" + i % 5 + "/song-" + i,
                        json("tags", List.of(tag(i), tag(i + 1)))),
                null);
        measure("GET /songs?tag={tag}&limit=20", n, i -> Call.get(null, "/songs?tag=" + tag(i) + "&limit=20"), null);
    }

    /**
     * The same reads on a small and a large partition: the inbox of a user in 10 conversations and of
     * one in --seed-size, the latest joiners of a group of 10 and of --seed-size members.
     */
    private void atAnySize(int n) throws Exception {
        int large = options.seedSize();
        ensureUsers(large);
        for (int size : new int[] {SMALL, large}) {
            String owner = name("inbox" + size);
            token(owner);
            // Every member of a conversation must be a signed-up user.
            seed("the owner of an inbox of " + size, 1, k -> signUp(owner), null);
            // User k starts a conversation with the owner and sends one message: a summary and an unread marker.
            String[] conversations = new String[size];
            seed(
                    "conversations for an inbox of " + size,
                    size,
                    k -> Call.post(user(k), "/conversations", json("members", List.of(owner))),
                    (k, body) -> conversations[k] = id(body));
            seed(
                    "messages for an inbox of " + size,
                    size,
                    k -> Call.post(
                            user(k),
                            "/conversations/" + conversations[k] + "/messages",
                            json("content", "Hello from " + user(k))),
                    null);
            measure(
                    "GET /inbox?limit=20, " + size + " conversations",
                    n,
                    i -> Call.get(owner, "/inbox?limit=20"),
                    null);
        }
        for (int size : new int[] {SMALL, large}) {
            String group = "/groups/" + name("size" + size);
            seed(
                    "members of a group of " + size,
                    size,
                    k -> Call.put(user(k), group + "/members/" + user(k), null),
                    null);
            measure(
                    "GET /groups/{group}/members/latest?limit=20, " + size + " members",
                    n,
                    i -> Call.get(user(i % size), group + "/members/latest?limit=20"),
                    null);
        }
    }

    /** Creates users usersCreated..count-1 when an earlier row made too few (not measured). */
    private void ensureUsers(int count) throws Exception {
        if (count > usersCreated) {
            mintTokens(usersCreated, count);
            int from = usersCreated;
            seed("users", count - from, k -> newUser(from + k), null);
            usersCreated = count;
        }
    }

    private Call newUser(int i) {
        return signUp(user(i));
    }

    private static Call signUp(String username) {
        return Call.post(
                username,
                "/users",
                "{\"username\":" + quote(username) + ",\"email\":" + quote(username + "@bench.example") + "}");
    }

    // ---- Sending and measuring ----------------------------------------------------------------

    private static int warmup(int n) {
        return Math.max(1, n / 10);
    }

    /** Warms the route up with calls n..n+warmup-1, then measures calls 0..n-1 and prints the row. */
    private Stats measure(String route, int n, IntFunction<Call> calls, BiConsumer<Integer, String> onOk)
            throws Exception {
        say(route + ": warming up");
        send(n, warmup(n), calls, onOk);
        Stats s = send(0, n, calls, onOk);
        rows.add(s);
        long[] sorted = s.nanos.clone();
        Arrays.sort(sorted);
        System.out.printf(
                "%-56s %8d %6d %8.1f %8.1f %8.1f %8.1f %8.1f %10s %10s  %s%n",
                route,
                n,
                s.errorCount(),
                n / (s.elapsedNanos / 1e9),
                Stats.percentileMs(sorted, 0.50),
                Stats.percentileMs(sorted, 0.95),
                Stats.percentileMs(sorted, 0.99),
                sorted[sorted.length - 1] / 1e6,
                decimal(s.mean(s.partitions)),
                decimal(s.mean(s.statements)),
                s.errorStatuses());
        System.out.flush();
        return s;
    }

    /** Sends calls that set up a measurement; says on stderr if some failed. */
    private void seed(String what, int count, IntFunction<Call> calls, BiConsumer<Integer, String> onOk)
            throws Exception {
        say("seeding " + count + " " + what);
        Stats s = send(0, count, calls, onOk);
        if (s.errorCount() > 0) {
            say("seeding " + what + ": " + s.errorCount() + " of " + count + " failed (" + s.errorStatuses() + ")");
        }
    }

    /** Sends calls from..from+count-1, at most --concurrency in flight; onOk sees each 2xx body. */
    private Stats send(int from, int count, IntFunction<Call> calls, BiConsumer<Integer, String> onOk)
            throws Exception {
        Stats stats = new Stats(count);
        CountDownLatch done = new CountDownLatch(count);
        long start = System.nanoTime();
        for (int k = 0; k < count; k++) {
            int index = from + k;
            int slot = k;
            HttpRequest request = request(calls.apply(index));
            inFlight.acquire();
            long sent = System.nanoTime();
            http.sendAsync(request, HttpResponse.BodyHandlers.ofString()).whenComplete((response, failure) -> {
                try {
                    stats.nanos[slot] = System.nanoTime() - sent;
                    if (failure != null) {
                        stats.errors.computeIfAbsent("io", e -> new LongAdder()).increment();
                        return;
                    }
                    response.headers().firstValue("X-Partitions-Read").ifPresent(p -> {
                        stats.partitions.add(Long.parseLong(p));
                        stats.statements.add(Long.parseLong(
                                response.headers().firstValue("X-Statements").orElse("0")));
                        stats.accounted.increment();
                    });
                    if (response.statusCode() / 100 != 2) {
                        stats.errors
                                .computeIfAbsent(String.valueOf(response.statusCode()), e -> new LongAdder())
                                .increment();
                    } else if (onOk != null) {
                        onOk.accept(index, response.body());
                    }
                } finally {
                    inFlight.release();
                    done.countDown();
                }
            });
        }
        done.await();
        stats.elapsedNanos = System.nanoTime() - start;
        return stats;
    }

    private HttpRequest request(Call call) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(options.baseUrl() + call.path()))
                .timeout(Duration.ofSeconds(60));
        if (call.user() != null) {
            b.header("Authorization", "Bearer " + token(call.user()));
        }
        if (call.json() != null) {
            b.header("Content-Type", "application/json");
        }
        return b.method(
                        call.method(),
                        call.json() == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(call.json()))
                .build();
    }

    // ---- The service --------------------------------------------------------------------------

    private void requireReady() {
        String url = options.baseUrl() + "/q/health/ready";
        String problem;
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(url))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            if (r.statusCode() == 200 && r.body().contains("\"UP\"")) {
                return;
            }
            problem = "answered " + r.statusCode();
        } catch (IOException | IllegalArgumentException e) {
            problem = "did not answer (" + e.getClass().getSimpleName() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            problem = "was interrupted";
        }
        fail(
                1,
                "the service is not ready: " + url + " " + problem
                        + "; start it with bin/run and wait until it answers UP");
    }

    /** Heap used (every heap pool), heap max (pools with a max) and RSS, from the Prometheus text. */
    private Memory memory() {
        try {
            HttpResponse<String> r = http.send(
                    HttpRequest.newBuilder(URI.create(options.baseUrl() + "/q/metrics"))
                            .timeout(Duration.ofSeconds(10))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            double used = 0, max = 0, rss = Double.NaN;
            for (String line : r.body().split("\n")) {
                boolean heap = line.contains("area=\"heap\"");
                if (line.startsWith("jvm_memory_used_bytes{") && heap) {
                    used += sample(line);
                } else if (line.startsWith("jvm_memory_max_bytes{") && heap && sample(line) > 0) {
                    max += sample(line); // G1's eden and survivor say -1: no max of their own
                } else if (line.startsWith("process_resident_memory_bytes ")) {
                    rss = sample(line);
                }
            }
            return r.statusCode() == 200 ? new Memory(used, max, rss) : new Memory(Double.NaN, Double.NaN, Double.NaN);
        } catch (IOException | InterruptedException e) {
            return new Memory(Double.NaN, Double.NaN, Double.NaN);
        }
    }

    private static double sample(String line) {
        return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
    }

    // ---- Tokens -------------------------------------------------------------------------------

    /** The user's bearer token, minted on first use (mintTokens mints many ahead, in parallel). */
    private String token(String user) {
        String token = tokens.get(user);
        if (token == null) {
            token = runTokenCommand(user);
            tokens.put(user, token);
        }
        return token;
    }

    /** Tokens of users from..to-1, four bin/token processes at a time. */
    private void mintTokens(int from, int to) throws Exception {
        say("minting " + (to - from) + " tokens with " + tokenCommand);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<String>> minted = new ArrayList<>();
            for (int i = from; i < to; i++) {
                String user = user(i);
                minted.add(pool.submit(() -> token(user)));
            }
            for (Future<String> f : minted) {
                f.get();
            }
        } finally {
            pool.shutdown();
        }
    }

    private String runTokenCommand(String user) {
        try {
            Process p = new ProcessBuilder(tokenCommand, user)
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String token = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            if (p.waitFor() != 0 || token.isEmpty()) {
                throw new IllegalStateException(tokenCommand + " " + user + " failed (exit " + p.exitValue() + ")");
            }
            return token;
        } catch (IOException e) {
            throw new IllegalStateException("cannot run " + tokenCommand + ": " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    // ---- Names and JSON -----------------------------------------------------------------------

    /** A name of this run: "b" + run id + "-" + what; at most 32 characters of a-z 0-9 -. */
    private String name(String what) {
        return "b" + run + "-" + what;
    }

    private String user(int i) {
        return name("u" + i);
    }

    private String tag(int i) {
        return name("t" + Math.floorMod(i, TAGS));
    }

    private static String randomId() {
        SecureRandom random = new SecureRandom();
        StringBuilder s = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            s.append(Character.forDigit(random.nextInt(36), 36));
        }
        return s.toString();
    }

    /** {"field": "value"} or {"field": ["a", "b"]}. */
    private static String json(String field, Object value) {
        String v = value instanceof List<?> list
                ? "["
                        + String.join(
                                ",", list.stream().map(x -> quote(x.toString())).toList()) + "]"
                : quote(value.toString());
        return "{" + quote(field) + ":" + v + "}";
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static String id(String body) {
        Matcher m = ID.matcher(body);
        return m.find() ? m.group(1) : null;
    }

    private static String decimal(double d) {
        return Double.isNaN(d) ? "-" : String.format("%.2f", d);
    }

    private static String mib(double bytes) {
        return Double.isNaN(bytes) ? "n/a" : String.format("%.1f MiB", bytes / (1024 * 1024));
    }

    private static void say(String message) {
        System.err.println("bench: " + message);
    }

    private static void fail(int status, String message) {
        System.err.println("bench: " + message);
        System.exit(status);
    }
}
