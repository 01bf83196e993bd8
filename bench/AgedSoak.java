import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Aged data through the routes only (issue 27): builds small read targets, measures every read route
 * on them fresh, then ages the keyspace with -Dwrites=N HTTP writes of a busy service's mix, and
 * measures the same routes twice: right after the writes, and again once the node has flushed its
 * memtables and its compactions have caught up (waited for, not forced). Per route it prints p50 and
 * p99 fresh, aged and settled (closed model, CONCURRENCY in flight, ROUNDS rounds of SECONDS
 * alternated, medians), and the tombstone cells one request scanned, from the node's own traces
 * ("Read N live rows and M tombstone cells"). The busy members' inboxes are measured against their twin, a
 * user built after the aging with the same number of conversations and 5 unread in each, and the rows of
 * their inbox partitions counted. Last, the reader reads everything and 5 messages arrive in each of its
 * conversations: its inbox is compared with the twin's at the same unread counts, right after those
 * mark-reads and again settled.
 *
 * <p>The mix: sends into 100 busy conversations (BUSY), each with two members beside its sender, one who
 * never reads and one (the reader) who marks one of them read every 1,000 (45 %, so 10^6 writes give
 * each 450,000 messages); a
 * group conversation's sends, with a member added and leaving again every 100th (5 %); public and
 * private pastes with expiries from 2 s to 1 h, a third deleted at once (20 %: the cheapest way to
 * leave dead rows in the public list); a song tagged and untagged on the measured tag (10 %); a new
 * user joining and leaving the measured group (10 %); clicks and course views (10 %). The scheduler
 * (the roller) runs in the service meanwhile. Run by bin/aged-soak, which starts the node and the
 * service; it asserts nothing.
 */
public class AgedSoak {
    static final int WRITES = Integer.getInteger("writes", 100_000);
    static final int CONCURRENCY = Integer.getInteger("concurrency", 16);
    static final int SECONDS = Integer.getInteger("seconds", 6);
    static final int ROUNDS = Integer.getInteger("rounds", 3);
    /** The busy conversations of the two members who get the mix's sends. */
    static final int BUSY = Integer.getInteger("busy", 100);

    static final Pattern READ = Pattern.compile("Read (\\d+) live rows and (\\d+) tombstone cells");
    static final Pattern MERGED = Pattern.compile("Merged data from memtables and (\\d+) sstables");

    static String base;
    static String root;
    static final HttpClient HTTP =
            HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();
    static final Map<String, AtomicInteger> FAILED = new ConcurrentSkipListMap<>();

    /** One read route on its target: a request and the user it is sent as (null: none). */
    record Route(String name, String path, String user) {
        HttpRequest request() {
            HttpRequest.Builder b =
                    HttpRequest.newBuilder(URI.create(base + path)).GET();
            return user == null
                    ? b.build()
                    : b.header("Authorization", "Bearer " + token(user)).build();
        }
    }

    record Run(double p50, double p99) {}

    public static void main(String[] args) throws Exception {
        base = System.getProperty("base-url", "http://localhost:18490");
        root = System.getProperty("bench.root", ".");
        String[] contact = System.getProperty("contact", "127.0.0.1:19452").split(":");
        String t = Long.toString(System.currentTimeMillis() % 1_000_000, 36);

        String owner = "owner-" + t;
        List<String> senders = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            senders.add(signUp("sender" + i + "-" + t));
        }
        Targets first = targets(t, owner, senders);
        String heavy = signUp("heavy-" + t);
        String never = signUp("never-" + t);
        List<String> heavyConversations = busyConversations(senders, List.of(heavy, never));
        // A full history page (50) before aging too, so both measurements read the same number of messages.
        messages(senders.get(0), heavyConversations.get(0), 45);
        String group = conversation(heavy, senders.subList(0, 3), "the group");
        String joiner = signUp("joiner-" + t);
        for (int i = 0; i < 50; i++) {
            must(post(
                    null,
                    "/pastes",
                    "{\"title\":\"lasting " + i + "\",\"body\":\"b\",\"private\":false,\"expiresIn\":\"P1D\"}"));
        }
        // The aged list merges the 1 h period (the mix's PT1H pastes) with the 1 d one (those above); so does the
        // fresh one, so that both read the same periods and the ratio is what aging adds.
        for (int i = 0; i < 50; i++) {
            must(post(
                    null,
                    "/pastes",
                    "{\"title\":\"hour " + i + "\",\"body\":\"b\",\"private\":false,\"expiresIn\":\"PT1H\"}"));
        }
        for (int i = 0; i < 50; i++) {
            must(post(null, "/clicks", "{\"url\":\"https://example.com/" + i + "\"}"));
        }

        List<Route> routes = new ArrayList<>(List.of(
                new Route("GET /inbox (reads every 1,000)", "/inbox?limit=50", heavy),
                new Route("GET /inbox (never reads)", "/inbox?limit=50", never),
                new Route("GET /pastes", "/pastes?limit=50", null),
                new Route("GET /clicks", "/clicks?limit=50", null)));
        routes.addAll(first.routes("", heavy, heavyConversations.get(0)));

        try (CqlSession session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(contact[0], Integer.parseInt(contact[1])))
                .withLocalDatacenter("datacenter1")
                .build()) {
            System.out.println("fresh: measuring " + routes.size() + " routes");
            Map<String, Run> freshRuns = measureAll(routes);
            Map<String, Long> freshCells = traced(session, routes);

            long t0 = System.nanoTime();
            age(
                    t,
                    heavy,
                    senders,
                    heavyConversations,
                    group,
                    joiner,
                    first.tag(),
                    owner,
                    first.group(),
                    first.course());
            System.out.printf(
                    "aged with %,d writes in %.0f s; failed: %s%n", WRITES, (System.nanoTime() - t0) / 1e9, FAILED);
            // Twins: the same targets built again now, on the node as aging left it, measured in turn with the
            // aged ones. Fresh data measured minutes earlier met another node (no SSTables, no compactions, a
            // cooler JIT); a twin differs from its aged target only in what the aging wrote to the target.
            Targets second = targets(t + "t", owner, senders);
            messages(senders.get(0), second.conversations().get(0), 45);
            List<Route> twins = new ArrayList<>(second.routes(
                    " [twin]", second.user(), second.conversations().get(0)));
            // The busy members' twin: as many conversations, 5 unread in each.
            String busyTwin = signUp("busy-twin-" + t);
            String twinPartner = signUp("busy-twin-partner-" + t);
            List<String> twinConversations = busyConversations(senders, List.of(busyTwin, twinPartner));
            Route inboxTwin =
                    new Route("GET /inbox (twin: as many conversations, 5 unread each)", "/inbox?limit=50", busyTwin);
            twins.add(inboxTwin);
            List<Route> both = new ArrayList<>(routes);
            both.addAll(twins);
            Thread.sleep(5_000); // moves of generations finish after the answers that started them

            System.out.println("aged: measuring " + both.size() + " routes, right after the writes");
            Map<String, Run> agedRuns = measureAll(both);
            Map<String, Long> agedCells = traced(session, both);
            // The run compresses months into minutes, so the node still holds nearly all of them in its
            // memtables, which a node serving months of writes has long flushed. Measured again once the
            // memtables are flushed (nodetool flush: what a node does by itself as they fill) and the node's
            // own compactions have caught up (waited for, never forced).
            nodetool("flush", "cql_patterns");
            long waited = settle();
            System.out.printf(
                    "settled: memtables flushed, the node's compactions caught up after %d s; measuring again%n",
                    waited);
            Map<String, Run> settledRuns = measureAll(both);
            Map<String, Long> settledCells = traced(session, both);

            System.out.printf(
                    "%n%,d writes through the routes, %d in flight, medians of %d rounds of %d s; twin: the same "
                            + "target built after the aging, measured in turn with the aged one (none for the global lists)%n",
                    WRITES, CONCURRENCY, ROUNDS, SECONDS);
            System.out.println(
                    "| route | fresh p50 / p99 ms | aged p50 / p99 ms | aged / fresh | aged / twin | settled p50 / p99 ms "
                            + "| settled / fresh | settled / twin | tombstone cells per request, fresh / aged / settled |");
            System.out.println("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
            for (Route r : routes) {
                Run f = freshRuns.get(r.name());
                Run a = agedRuns.get(r.name());
                Run s = settledRuns.get(r.name());
                Run at = agedRuns.get(r.name() + " [twin]");
                Run st = settledRuns.get(r.name() + " [twin]");
                System.out.printf(
                        "| %s | %.2f / %.2f | %.2f / %.2f | %.2fx | %s | %.2f / %.2f | %.2fx | %s | %d / %d / %d |%n",
                        r.name(),
                        f.p50(),
                        f.p99(),
                        a.p50(),
                        a.p99(),
                        a.p50() / f.p50(),
                        ratio(a, at),
                        s.p50(),
                        s.p99(),
                        s.p50() / f.p50(),
                        ratio(s, st),
                        freshCells.get(r.name()),
                        agedCells.get(r.name()),
                        settledCells.get(r.name()));
            }
            for (Route busy : routes.subList(0, 2)) {
                System.out.printf(
                        "%s against its twin (%d conversations, 5 unread each): aged p50 %.2fx p99 %.2fx, settled p50 "
                                + "%.2fx p99 %.2fx%n",
                        busy.name(),
                        BUSY,
                        agedRuns.get(busy.name()).p50()
                                / agedRuns.get(inboxTwin.name()).p50(),
                        agedRuns.get(busy.name()).p99()
                                / agedRuns.get(inboxTwin.name()).p99(),
                        settledRuns.get(busy.name()).p50()
                                / settledRuns.get(inboxTwin.name()).p50(),
                        settledRuns.get(busy.name()).p99()
                                / settledRuns.get(inboxTwin.name()).p99());
            }
            for (String user : List.of(never, heavy, busyTwin)) {
                System.out.printf(
                        "rows of inbox_by_user for %s: %d%n",
                        user,
                        session.execute("SELECT count(*) FROM cql_patterns.inbox_by_user WHERE username = ?", user)
                                .one()
                                .getLong(0));
            }

            // The same unread counts on both pages: the reader reads everything (the group conversation too),
            // then 5 more arrive in each of its busy conversations, as the twin has.
            must(post(heavy, "/conversations/" + group + "/read", null));
            for (int i = 0; i < heavyConversations.size(); i++) {
                must(post(heavy, "/conversations/" + heavyConversations.get(i) + "/read", null));
                messages(senders.get(i % senders.size()), heavyConversations.get(i), 5);
            }
            List<Route> inboxes =
                    List.of(new Route("GET /inbox (reader, read, 5 new each)", "/inbox?limit=50", heavy), inboxTwin);
            compare(session, inboxes, "right after the mark-reads");
            // The mark-reads' range tombstones sit in the memtable while the thousands of markers they
            // delete stay in the SSTables until a flush lets compaction drop them together; until then
            // every slice into the heavy user's partition is found through that larger partition's index.
            nodetool("flush", "cql_patterns");
            System.out.printf("memtables flushed, compactions caught up after %d s%n", settle());
            compare(session, inboxes, "settled");
        }
    }

    /** The reader's inbox against the twin's, same unread counts: p50 and p99 ratios, tombstone cells. */
    static void compare(CqlSession session, List<Route> inboxes, String when) throws Exception {
        Map<String, Run> even = measureAll(inboxes);
        Map<String, Long> cells = traced(session, inboxes);
        Run heavy = even.get(inboxes.get(0).name());
        Run fresh = even.get(inboxes.get(1).name());
        System.out.printf(
                "the reader's inbox against the twin's with 5 unread in each conversation, %s (p50): %.2fx "
                        + "(p99 %.2fx); tombstone cells %d / %d%n",
                when,
                heavy.p50() / fresh.p50(),
                heavy.p99() / fresh.p99(),
                cells.get(inboxes.get(0).name()),
                cells.get(inboxes.get(1).name()));
    }

    /** p50 of {@code run} against its twin's, or a dash when the route has none. */
    static String ratio(Run run, Run twin) {
        return twin == null ? "-" : String.format("%.2fx", run.p50() / twin.p50());
    }

    /**
     * The targets of the per-entity read routes, as fresh as they come: a user with 5 messages in each of 10
     * conversations (one from each sender), 50 songs under a tag, a group of 50 members, a course with 50
     * views and a paste.
     */
    record Targets(String user, List<String> conversations, String tag, String group, String course, String paste) {
        /** The routes on these targets, their names ending with {@code suffix}; the history page is {@code history}'s. */
        List<Route> routes(String suffix, String historyUser, String history) {
            return List.of(
                    new Route("GET /inbox (new user)" + suffix, "/inbox?limit=50", user),
                    new Route(
                            "GET /conversations/{id}/messages" + suffix,
                            "/conversations/" + history + "/messages?limit=50",
                            historyUser),
                    new Route("GET /pastes/{id}" + suffix, "/pastes/" + paste, null),
                    new Route("GET /songs?tag=" + suffix, "/songs?tag=" + tag + "&limit=50", null),
                    new Route("GET /groups/{group}/members" + suffix, "/groups/" + group + "/members?limit=50", user),
                    new Route(
                            "GET /groups/{group}/members/latest" + suffix,
                            "/groups/" + group + "/members/latest?limit=50",
                            user),
                    new Route("GET /courses/{id}/views" + suffix, "/courses/" + course + "/views?limit=50", null));
        }
    }

    static Targets targets(String t, String owner, List<String> senders) throws Exception {
        String user = signUp("new-" + t);
        List<String> conversations = new ArrayList<>();
        for (String sender : senders) {
            conversations.add(conversation(sender, List.of(user), null));
            messages(sender, conversations.get(conversations.size() - 1), 5);
        }
        String name = "soak-" + t;
        for (int i = 0; i < 50; i++) {
            must(put(owner, "/songs/" + enc("Artist " + i + " " + t) + "/Album/Song", "{\"tags\":[\"" + name + "\"]}"));
            String member = signUp(String.format("m%02d-%s", i, t));
            must(put(member, "/groups/" + name + "/members/" + member, null));
        }
        must(put(owner, "/courses/" + name, "{\"name\":\"Soak\"}"));
        for (int i = 0; i < 50; i++) {
            must(post(null, "/courses/" + name + "/views", null));
        }
        String paste = field(
                must(post(
                        null,
                        "/pastes",
                        "{\"title\":\"kept\",\"body\":\"b\",\"private\":false," + "\"expiresIn\":\"P1D\"}")),
                "id");
        return new Targets(user, conversations, name, name, name, paste);
    }

    /** BUSY conversations of {@code members}, each started by the senders in turn with 5 messages. */
    static List<String> busyConversations(List<String> senders, List<String> members) throws Exception {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < BUSY; i++) {
            String sender = senders.get(i % senders.size());
            ids.add(conversation(sender, members, null));
            messages(sender, ids.get(i), 5);
        }
        return ids;
    }

    /** {@code count} messages from {@code sender} into a conversation, one after the other. */
    static void messages(String sender, String conversation, int count) throws Exception {
        for (int m = 0; m < count; m++) {
            must(post(sender, "/conversations/" + conversation + "/messages", "{\"content\":\"hello " + m + "\"}"));
        }
    }

    /** WRITES writes of the mix, CONCURRENCY operations in flight; an operation is one to three writes in turn. */
    static void age(
            String t,
            String heavy,
            List<String> senders,
            List<String> heavyConversations,
            String group,
            String joiner,
            String tag,
            String owner,
            String gname,
            String course)
            throws Exception {
        Random random = new Random(27);
        AtomicLong writes = new AtomicLong();
        AtomicInteger sends = new AtomicInteger();
        AtomicInteger serial = new AtomicInteger();
        Semaphore slots = new Semaphore(CONCURRENCY);
        String[] expiries = {"PT2S", "PT10S", "PT1M", "PT5M", "PT1H"};
        long reported = 0;
        while (writes.get() < WRITES) {
            slots.acquire();
            int dice = random.nextInt(100);
            int n = serial.incrementAndGet();
            Supplier<CompletableFuture<Integer>> op;
            if (dice < 45) {
                int s = sends.getAndIncrement();
                int c = s % heavyConversations.size();
                String id = heavyConversations.get(c);
                op = (s + 1) % 1000 == 0
                        ? () -> send(
                                        senders.get(c % senders.size()),
                                        "/conversations/" + id + "/messages",
                                        "{\"content\":\"m" + s + "\"}",
                                        "send")
                                .thenCompose(x -> send(
                                        heavy,
                                        "/conversations/"
                                                + heavyConversations.get((s / 1000) % heavyConversations.size())
                                                + "/read",
                                        null,
                                        "read"))
                        : () -> send(
                                senders.get(c % senders.size()),
                                "/conversations/" + id + "/messages",
                                "{\"content\":\"m" + s + "\"}",
                                "send");
            } else if (dice < 50) {
                op = n % 100 == 0
                        ? () -> call(
                                        "PUT",
                                        heavy,
                                        "/conversations/" + group + "/members/" + joiner,
                                        null,
                                        "conversation join")
                                .thenCompose(x -> call(
                                        "DELETE",
                                        joiner,
                                        "/conversations/" + group + "/members/" + joiner,
                                        null,
                                        "conversation leave"))
                        : () -> send(
                                senders.get(n % 3),
                                "/conversations/" + group + "/messages",
                                "{\"content\":\"g" + n + "\"}",
                                "group send");
            } else if (dice < 70) {
                boolean isPrivate = n % 5 == 0;
                String body = "{\"title\":\"p" + n + "\",\"body\":\"body " + n + "\",\"private\":" + isPrivate
                        + ",\"expiresIn\":\"" + expiries[n % expiries.length] + "\"}";
                op = n % 3 == 0
                        ? () -> created(null, "/pastes", body, "paste")
                                .thenCompose(json -> json == null
                                        ? CompletableFuture.completedFuture(1)
                                        : call(
                                                        "DELETE",
                                                        null,
                                                        "/pastes/" + field(json, "id"),
                                                        null,
                                                        "paste delete",
                                                        "X-Paste-Secret",
                                                        field(json, "secret"))
                                                .thenApply(x -> 2))
                        : () -> send(null, "/pastes", body, "paste");
            } else if (dice < 80) {
                String song = "/songs/" + enc("Churn " + n) + "/Album/Song";
                op = () -> call("PUT", owner, song, "{\"tags\":[\"" + tag + "\"]}", "tag")
                        .thenCompose(x -> call("DELETE", owner, song + "/tags/" + tag, null, "untag"))
                        .thenApply(x -> 2);
            } else if (dice < 90) {
                String user = "g" + n + "-" + t;
                op = () -> call(
                                "POST",
                                user,
                                "/users",
                                "{\"username\":\"" + user + "\",\"email\":\"" + user + "@example.com\"}",
                                "sign-up")
                        .thenCompose(
                                x -> call("PUT", user, "/groups/" + gname + "/members/" + user, null, "group join"))
                        .thenCompose(
                                x -> call("DELETE", user, "/groups/" + gname + "/members/" + user, null, "group leave"))
                        .thenApply(x -> 3);
            } else if (dice < 95) {
                op = () -> send(null, "/clicks", "{\"url\":\"https://example.com/c" + n + "\"}", "click");
            } else {
                op = () -> send(null, "/courses/" + course + "/views", null, "view");
            }
            op.get().whenComplete((count, e) -> {
                writes.addAndGet(count == null ? 1 : count);
                slots.release();
            });
            if (writes.get() - reported >= 50_000) {
                reported = writes.get();
                System.out.printf("  %,d writes (%s)%n", reported, Instant.now());
            }
        }
        slots.acquire(CONCURRENCY);
    }

    static CompletableFuture<Integer> send(String user, String path, String json, String kind) {
        return call("POST", user, path, json, kind);
    }

    /** One write; a failure is counted by kind (the run goes on), and counts as one write all the same. */
    static CompletableFuture<Integer> call(
            String method, String user, String path, String json, String kind, String... headers) {
        return HTTP.sendAsync(request(method, user, path, json, headers), HttpResponse.BodyHandlers.discarding())
                .handle((r, e) -> {
                    if (e != null || r.statusCode() >= 300) {
                        FAILED.computeIfAbsent(
                                        kind + " " + (e != null ? e.getClass().getSimpleName() : r.statusCode()),
                                        k -> new AtomicInteger())
                                .incrementAndGet();
                    }
                    return 1;
                });
    }

    /** A create whose answer is needed; null when it failed. */
    static CompletableFuture<String> created(String user, String path, String json, String kind) {
        return HTTP.sendAsync(request("POST", user, path, json), HttpResponse.BodyHandlers.ofString())
                .handle((r, e) -> {
                    if (e != null || r.statusCode() >= 300) {
                        FAILED.computeIfAbsent(
                                        kind + " " + (e != null ? e.getClass().getSimpleName() : r.statusCode()),
                                        k -> new AtomicInteger())
                                .incrementAndGet();
                        return null;
                    }
                    return r.body();
                });
    }

    static HttpRequest request(String method, String user, String path, String json, String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(base + path))
                .method(
                        method,
                        json == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            b.header("Content-Type", "application/json");
        }
        if (user != null) {
            b.header("Authorization", "Bearer " + token(user));
        }
        for (int i = 0; i + 1 < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return b.build();
    }

    /** Each route: a warm-up, then ROUNDS rounds of SECONDS, routes alternated; the medians. */
    static Map<String, Run> measureAll(List<Route> routes) throws Exception {
        Map<String, List<Run>> runs = new LinkedHashMap<>();
        for (Route r : routes) {
            measure(r, 1);
            runs.put(r.name(), new ArrayList<>());
        }
        for (int round = 0; round < ROUNDS; round++) {
            for (Route r : routes) {
                runs.get(r.name()).add(measure(r, SECONDS));
            }
        }
        Map<String, Run> medians = new LinkedHashMap<>();
        runs.forEach((name, list) -> {
            Run m = new Run(
                    ClosedLoop.median(list.stream().mapToDouble(Run::p50).toArray()),
                    ClosedLoop.median(list.stream().mapToDouble(Run::p99).toArray()));
            medians.put(name, m);
            System.out.printf("  %-36s p50 %7.2f ms  p99 %7.2f ms%n", name, m.p50(), m.p99());
        });
        return medians;
    }

    /** Closed model: CONCURRENCY requests in flight for {@code seconds}. */
    static Run measure(Route route, int seconds) throws Exception {
        ClosedLoop.Result r = ClosedLoop.run(HTTP, route.request(), CONCURRENCY, seconds);
        if (r.failed() > 0) {
            System.out.println("  " + route.name() + ": " + r.failed() + " requests failed " + r.failures());
        }
        return new Run(r.ms(0.50), r.ms(0.99));
    }

    /**
     * One request per route with the node tracing every statement (nodetool settraceprobability 1),
     * a second apart; answers the tombstone cells each route's statements scanned, from system_traces.
     */
    static Map<String, Long> traced(CqlSession session, List<Route> routes) throws Exception {
        nodetool("settraceprobability", "1");
        List<Instant> starts = new ArrayList<>();
        try {
            for (Route r : routes) {
                Thread.sleep(1_000);
                starts.add(Instant.now());
                HTTP.send(r.request(), HttpResponse.BodyHandlers.discarding());
            }
            Thread.sleep(1_000);
            starts.add(Instant.now());
        } finally {
            nodetool("settraceprobability", "0");
        }
        Thread.sleep(3_000); // the node writes its traces in the background
        Map<String, Long> cells = new LinkedHashMap<>();
        routes.forEach(r -> cells.put(r.name(), 0L));
        List<String> statements = new ArrayList<>();
        for (Row s :
                session.execute("SELECT session_id, started_at, duration, parameters FROM system_traces.sessions")) {
            Instant at = s.getInstant("started_at");
            for (int i = 0; i < routes.size(); i++) {
                if (at != null && !at.isBefore(starts.get(i)) && at.isBefore(starts.get(i + 1))) {
                    long m = 0;
                    StringBuilder merged = new StringBuilder();
                    for (Row e : session.execute(SimpleStatement.newInstance(
                            "SELECT activity FROM system_traces.events WHERE session_id = ?",
                            s.getUuid("session_id")))) {
                        String activity = e.getString("activity");
                        Matcher read = READ.matcher(activity);
                        m += read.find() ? Long.parseLong(read.group(2)) : 0;
                        Matcher sstables = MERGED.matcher(activity);
                        if (sstables.find()) {
                            merged.append(merged.isEmpty() ? "" : ",").append(sstables.group(1));
                        }
                    }
                    cells.merge(routes.get(i).name(), m, Long::sum);
                    String query =
                            s.getMap("parameters", String.class, String.class).getOrDefault("query", "?");
                    statements.add(String.format(
                            "  %s | %,d us | sstables %s | %d cells | %s",
                            routes.get(i).name(),
                            s.getInt("duration"),
                            merged,
                            m,
                            query.length() > 110 ? query.substring(0, 110) : query));
                }
            }
        }
        // What each statement cost the node: its duration, the SSTables it merged, its tombstone cells.
        statements.stream().sorted().forEach(System.out::println);
        return cells;
    }

    /**
     * Waits, at most 30 minutes, until the node reports no pending and no running compaction twice in a row
     * 10 s apart (nodetool compactionstats); answers the seconds waited. Compacts nothing itself.
     */
    static long settle() throws Exception {
        long start = System.nanoTime();
        int quiet = 0;
        while (quiet < 2 && System.nanoTime() - start < 1_800_000_000_000L) {
            Thread.sleep(10_000);
            Process p = new ProcessBuilder(root + "/bin/cassandra-local", "nodetool", "local", "compactionstats")
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            Matcher pending = Pattern.compile("pending tasks:?\\s+(\\d+)").matcher(out);
            boolean idle = pending.find() && pending.group(1).equals("0") && !out.contains("compaction type");
            quiet = idle ? quiet + 1 : 0;
        }
        return (System.nanoTime() - start) / 1_000_000_000L;
    }

    static void nodetool(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(root + "/bin/cassandra-local", "nodetool", "local"));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).inheritIO().start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("nodetool " + String.join(" ", args) + " failed");
        }
    }

    static String signUp(String user) throws Exception {
        must(post(user, "/users", "{\"username\":\"" + user + "\",\"email\":\"" + user + "@example.com\"}"));
        return user;
    }

    static String conversation(String creator, List<String> members, String title) throws Exception {
        String list = String.join("\",\"", members);
        return field(
                must(post(
                        creator,
                        "/conversations",
                        "{\"members\":[\"" + list + "\"]" + (title == null ? "" : ",\"title\":\"" + title + "\"")
                                + "}")),
                "id");
    }

    static HttpResponse<String> post(String user, String path, String json) throws Exception {
        return HTTP.send(request("POST", user, path, json), HttpResponse.BodyHandlers.ofString());
    }

    static HttpResponse<String> put(String user, String path, String json) throws Exception {
        return HTTP.send(request("PUT", user, path, json), HttpResponse.BodyHandlers.ofString());
    }

    static String must(HttpResponse<String> r) {
        if (r.statusCode() >= 300) {
            throw new IllegalStateException(
                    r.request().method() + " " + r.request().uri() + ": " + r.statusCode() + " " + r.body());
        }
        return r.body();
    }

    /** A string field of a flat JSON answer (ids and secrets: no escapes in them). */
    static String field(String json, String name) {
        Matcher m = Pattern.compile("\"" + name + "\"\\s*:\\s*\"([^\"]*)\"").matcher(json);
        if (!m.find()) {
            throw new IllegalStateException("no " + name + " in " + json);
        }
        return m.group(1);
    }

    static String enc(String segment) {
        return segment.replace(" ", "%20");
    }

    record Token(String value, long issued) {}

    static final Map<String, Token> SIGNED = new ConcurrentHashMap<>();
    static PrivateKey key;

    /**
     * A bearer token for {@code user}, signed as bin/token signs it (the local key pair of bin/run) but
     * in process: tens of thousands of users sign up during a run. Re-signed after 20 minutes, well
     * within the service's maximum token age.
     */
    static String token(String user) {
        long now = Instant.now().getEpochSecond();
        return SIGNED.compute(
                        user,
                        (u, old) -> old != null && now - old.issued() < 1_200 ? old : new Token(sign(u, now), now))
                .value();
    }

    static synchronized String sign(String user, long now) {
        try {
            if (key == null) {
                String pem = Files.readString(Path.of(root, ".local/jwt/privateKey.pem"))
                        .replaceAll("-----[A-Z ]+-----|\\s", "");
                key = KeyFactory.getInstance("RSA")
                        .generatePrivate(
                                new PKCS8EncodedKeySpec(Base64.getDecoder().decode(pem)));
            }
            Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
            String header = b64.encodeToString("{\"alg\":\"RS256\",\"typ\":\"JWT\"}".getBytes(StandardCharsets.UTF_8));
            String payload = b64.encodeToString(String.format(
                            "{\"iss\":\"cql-patterns\",\"aud\":\"cql-patterns\",\"sub\":\"%s\","
                                    + "\"iat\":%d,\"exp\":%d}",
                            user, now, now + 3_000)
                    .getBytes(StandardCharsets.UTF_8));
            Signature rsa = Signature.getInstance("SHA256withRSA");
            rsa.initSign(key);
            rsa.update((header + "." + payload).getBytes(StandardCharsets.US_ASCII));
            return header + "." + payload + "." + b64.encodeToString(rsa.sign());
        } catch (Exception e) {
            throw new IllegalStateException(
                    "cannot sign a token with .local/jwt/privateKey.pem (run bin/local-keys)", e);
        }
    }
}
