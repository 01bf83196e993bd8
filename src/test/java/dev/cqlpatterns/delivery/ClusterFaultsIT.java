package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.PackagedService;
import dev.cqlpatterns.testsupport.PackagedService.Command;
import dev.cqlpatterns.testsupport.TestCluster;
import dev.cqlpatterns.testsupport.Tokens;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The packaged service on a 3-node cluster at RF 3 and LOCAL_QUORUM that the test starts itself,
 * under a mixed load of 8 clients (keyed paste creates and message sends, sign-ups, paste and
 * history reads), while one node is killed (-9), one is paused (SIGSTOP), and two are stopped.
 * Clients do what the contract tells them: on 503 or no answer they retry the same request with
 * the same Idempotency-Key after Retry-After. Group conversation creates and group joins and leaves
 * (PUT and DELETE, retried as they are) run among them. Afterwards every acknowledged paste, message and
 * user is there exactly once, nothing a client was not told about is visible, unread counts are
 * exact, and each email lookup points at its user.
 *
 * <p>Bounded for CI (about 5 minutes with the cluster's start); {@code -Dfaults.seconds=90} holds
 * the killed node down and the load running longer.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFaultsIT {
    private static final int NODES = 3;
    private static final int CLIENTS = 8;
    /** How long the killed node stays down: longer than the ~17 s the others take to mark it down. */
    private static final Duration KILLED_FOR = Duration.ofSeconds(Long.getLong("faults.seconds", 25));

    private static final Duration PAUSED_FOR = Duration.ofSeconds(10);
    private static final Duration QUORUM_LOST_FOR = Duration.ofSeconds(10);
    /** A client gives up a write it retried this long (none should need it). */
    private static final Duration GIVE_UP_AFTER = Duration.ofMinutes(3);

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Map<String, String> TOKENS = new ConcurrentHashMap<>();

    private static TestCluster cluster;
    private static Process service;
    private static int port;

    @BeforeAll
    static void startClusterAndService() throws Exception {
        cluster = new TestCluster(NODES);
        cluster.start();
        PackagedService jar = new PackagedService(Map.of(
                "CQL_CONTACT_POINTS", cluster.contactPoints(),
                "CQL_LOCAL_DATACENTER", "datacenter1",
                "CQL_KEYSPACE", "cql_patterns_faults",
                "CQL_REPLICATION_FACTOR", Integer.toString(NODES),
                "CQL_CONSISTENCY", "LOCAL_QUORUM",
                "CURSOR_SECRET", "cluster-faults-test-cursor-secret",
                "RATE_LIMITS_ENABLED", "false",
                "SCHEDULER_IN_PROCESS", "false",
                // The load sends about 400 messages a conversation, checked as exact unread counts: above the default
                // cap (99).
                "CQL_PATTERNS_MESSENGER_UNREAD_COUNT_CAP", "9999"));
        Command migrate = jar.command("migrate");
        assertThat(migrate.exitCode())
                .as("migrate; output:%n%s", migrate.output())
                .isZero();
        port = PackagedService.freePort();
        long began = System.nanoTime();
        // Every exception the service throws, with where: all three driver connections have been seen
        // closing at once ("Unexpected error on channel") on a healthy cluster, a cause the driver does not log.
        service = jar.serve(
                PackagedService.JAR,
                port,
                PackagedService.ROOT.resolve("target/cluster-faults.log"),
                Map.of(
                        "JAVA_TOOL_OPTIONS",
                        "-Xlog:exceptions=info:file="
                                + PackagedService.ROOT.resolve("target/cluster-faults-exceptions.log")));
        assertThat(PackagedService.firstAnswer(port, "/q/health/ready", began, Duration.ofSeconds(60)))
                .isEqualTo(200);
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (service != null) {
            PackagedService.stop(service);
        }
        if (cluster != null) {
            cluster.stop();
        }
    }

    @Test
    @Order(1)
    void should_give_a_name_to_one_caller_when_sign_ups_race() throws Exception {
        int pairs = 30;
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<List<Integer>>>> sameBody = new ArrayList<>();
            List<Future<List<List<Integer>>>> otherBody = new ArrayList<>();
            for (int i = 0; i < pairs; i++) {
                String same = "twice-" + i + "-" + suffix();
                sameBody.add(threads.submit(() -> race(same, same + "@example.com", same + "@example.com")));
                String other = "race-" + i + "-" + suffix();
                otherBody.add(threads.submit(() -> race(other, other + "-a@example.com", other + "-b@example.com")));
            }
            for (Future<List<List<Integer>>> f : sameBody) {
                // a double submit of one body: both answers tell the caller they hold the name
                assertThat(f.get())
                        .as("answers to a double submit, each client's in order")
                        .allMatch(answers -> last(answers) == 200 || last(answers) == 201);
            }
            for (Future<List<List<Integer>>> f : otherBody) {
                List<List<Integer>> answers = f.get();
                // One creates (201) and one is refused (409). A creator told 503 first (its claim's
                // outcome was not learnt in time) is told on its retry, a new request, that the same
                // sign-up was made before: 200, as the contract says of a retry after a lost answer.
                assertThat(answers)
                        .as("answers to two bodies for one name, each client's in order")
                        .anyMatch(a -> last(a) == 409)
                        .anyMatch(a -> last(a) == 201 || (last(a) == 200 && a.contains(503)))
                        .allMatch(a -> last(a) != 200 || a.contains(503));
            }
        } finally {
            threads.shutdown();
        }
    }

    private static int last(List<Integer> answers) {
        return answers.get(answers.size() - 1);
    }

    /**
     * Two sign-ups of {@code name} at the same moment with the two emails; checks the claims after;
     * returns each client's statuses in the order it got them (503s it retried, then its answer).
     */
    private static List<List<Integer>> race(String name, String email1, String email2) throws Exception {
        List<List<Integer>> answers = Concurrently.run(List.of(email1, email2), email -> {
            try {
                List<Integer> statuses = new ArrayList<>();
                untilAnswered("POST", "/users", name, signUpBody(name, email), statuses);
                return statuses;
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        String held = JSON.readTree(readBack("/users/" + name, name).body())
                .path("email")
                .asText();
        assertThat(held).isIn(email1, email2);
        assertThat(readBack("/users?email=" + enc(held), name).statusCode())
                .as("the email lookup of %s's email %s", name, held)
                .isEqualTo(200);
        if (!email1.equals(email2)) {
            String other = held.equals(email1) ? email2 : email1;
            assertThat(readBack("/users?email=" + enc(other), name).statusCode())
                    .as("the email lookup of the losing email %s", other)
                    .isEqualTo(404);
            assertThat(last(answers.get(held.equals(email1) ? 0 : 1)))
                    .as("the answer to the sign-up whose email %s holds the name, of %s", held, answers)
                    .isIn(200, 201);
        }
        return answers;
    }

    @Test
    @Order(2)
    void should_keep_every_acknowledged_write_exactly_once_through_node_faults() throws Exception {
        Load load = new Load();
        load.setUp();
        load.start();
        try {
            load.phase("steady", Duration.ofSeconds(5));

            cluster.node(3, "kill");
            load.phase("one node killed", KILLED_FOR);
            cluster.node(3, "start");
            load.phase("killed node back", Duration.ofSeconds(5));

            cluster.node(2, "pause");
            load.phase("one node paused", PAUSED_FOR);
            cluster.node(2, "resume");
            load.phase("paused node back", Duration.ofSeconds(5));

            // SIGTERM drains a node for 8-14 s: the quorum goes while these run, not after.
            load.phase("stopping two nodes", Duration.ZERO);
            cluster.node(3, "stop");
            cluster.node(2, "stop");
            load.phase("quorum lost", QUORUM_LOST_FOR);
            cluster.node(2, "start");
            long back = System.nanoTime();
            load.phase("quorum back", Duration.ZERO);
            Duration recovered = load.fullServiceSince(back, Duration.ofSeconds(60));
            System.out.printf(
                    "cluster faults: full service %d ms after a second node answered CQL again%n",
                    recovered.toMillis());
            assertThat(recovered)
                    .as("time to full service after the quorum returned")
                    .isLessThanOrEqualTo(Duration.ofSeconds(30));
            cluster.node(3, "start");
            load.phase("all nodes back", Duration.ofSeconds(5));
        } finally {
            load.stop();
        }
        load.report();
        load.verify();
    }

    /** The mixed load and what the clients were told. */
    private static final class Load {
        private final List<String> senders = new ArrayList<>();
        private final List<String> readers = new ArrayList<>();
        private final List<String> conversations = new ArrayList<>();
        private final Map<String, Set<String>> acknowledgedMessages = new ConcurrentHashMap<>();
        private final Set<String> acknowledgedPastes = ConcurrentHashMap.newKeySet();
        private final List<String> pasteList = new java.util.concurrent.CopyOnWriteArrayList<>();
        private final Map<String, String> acknowledgedUsers = new ConcurrentHashMap<>();
        /** Each client's group, and whether its sender's last acknowledged change joined or left it. */
        private final List<String> groups = new ArrayList<>();

        private final Map<String, Boolean> inGroup = new ConcurrentHashMap<>();
        /** Group conversations: acknowledged id -> title (titles are unique), per creating sender. */
        private final Map<String, Map<String, String>> acknowledgedGroupChats = new ConcurrentHashMap<>();

        private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
        /** phase -> "operation first-attempt-status" -> count. */
        private final Map<String, Map<String, AtomicLong>> answers = new ConcurrentHashMap<>();

        private final List<String> phases = new ArrayList<>();
        private final AtomicBoolean running = new AtomicBoolean(true);
        private final AtomicLong lastWriteOk = new AtomicLong();
        private final AtomicLong lastReadOk = new AtomicLong();
        private volatile String phase = "setup";
        private ExecutorService threads;

        void setUp() throws Exception {
            for (int c = 0; c < CLIENTS; c++) {
                String sender = signedUp("sender-" + c + "-" + suffix());
                String reader = signedUp("reader-" + c + "-" + suffix());
                HttpResponse<String> created =
                        send("POST", "/conversations", sender, null, Map.of("members", List.of(reader)));
                assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
                String id = JSON.readTree(created.body()).path("id").asText();
                senders.add(sender);
                readers.add(reader);
                conversations.add(id);
                acknowledgedMessages.put(id, ConcurrentHashMap.newKeySet());
                groups.add("faults-" + suffix());
                acknowledgedGroupChats.put(sender, new ConcurrentHashMap<>());
            }
        }

        private String signedUp(String name) throws Exception {
            HttpResponse<String> r = send("POST", "/users", name, null, signUpBody(name, name + "@example.com"));
            assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
            acknowledgedUsers.put(name, name + "@example.com");
            return name;
        }

        void start() {
            threads = Executors.newFixedThreadPool(CLIENTS);
            for (int c = 0; c < CLIENTS; c++) {
                int client = c;
                threads.submit(() -> {
                    for (long n = 0; running.get(); n++) {
                        try {
                            step(client, n);
                        } catch (InterruptedException e) {
                            return;
                        } catch (Exception e) {
                            violations.add("client " + client + ": " + e);
                        }
                    }
                });
            }
        }

        void phase(String name, Duration hold) throws InterruptedException {
            phase = name;
            phases.add(name);
            System.out.printf("cluster faults: %s%n", name);
            Thread.sleep(hold.toMillis());
        }

        void stop() throws InterruptedException {
            running.set(false);
            threads.shutdown();
            // a write in its retry loop finishes (or gives up) before the checks read
            assertThat(threads.awaitTermination(GIVE_UP_AFTER.toSeconds() + 30, java.util.concurrent.TimeUnit.SECONDS))
                    .isTrue();
        }

        /** Time from {@code since} until a write and a read have both succeeded after it. */
        Duration fullServiceSince(long since, Duration atMost) throws InterruptedException {
            while (lastWriteOk.get() < since || lastReadOk.get() < since) {
                assertThat(Duration.ofNanos(System.nanoTime() - since))
                        .as("waiting for full service")
                        .isLessThan(atMost);
                Thread.sleep(50);
            }
            return Duration.ofNanos(Math.max(lastWriteOk.get(), lastReadOk.get()) - since);
        }

        private void step(int client, long n) throws Exception {
            String sender = senders.get(client);
            String conversation = conversations.get(client);
            switch ((int) (n % 6)) {
                case 0 -> {
                    String title = "paste " + suffix();
                    JsonNode paste = write(
                            "create paste",
                            null,
                            "/pastes",
                            Map.of("title", title, "body", "body of " + title, "private", false, "expiresIn", "P1D"));
                    if (paste != null) {
                        String id = paste.path("id").asText();
                        if (!acknowledgedPastes.add(id)) {
                            violations.add("two creates were answered with paste " + id);
                        }
                        pasteList.add(id);
                    }
                }
                case 1, 3 -> {
                    JsonNode message = write(
                            "send message",
                            sender,
                            "/conversations/" + conversation + "/messages",
                            Map.of("content", "message " + suffix()));
                    if (message != null
                            && !acknowledgedMessages
                                    .get(conversation)
                                    .add(message.path("id").asText())) {
                        violations.add("two sends were answered with message "
                                + message.path("id").asText());
                    }
                }
                case 2 -> {
                    if (!pasteList.isEmpty()) {
                        String id = pasteList.get(ThreadLocalRandom.current().nextInt(pasteList.size()));
                        read("read paste", null, "/pastes/" + id);
                    }
                }
                case 4 -> read("read history", sender, "/conversations/" + conversation + "/messages?limit=20");
                default -> {
                    if (n % 12 == 5) {
                        String name = "joiner-" + suffix();
                        if (write("sign up", name, "/users", signUpBody(name, name + "@example.com")) != null) {
                            acknowledgedUsers.put(name, name + "@example.com");
                        }
                    } else if (n % 24 == 23) {
                        groupStep(client, n / 24);
                    } else {
                        read("read inbox", readers.get(client), "/inbox");
                    }
                }
            }
        }

        /** Group conversation creates and group joins and leaves, in turn. */
        private void groupStep(int client, long turn) throws Exception {
            String sender = senders.get(client);
            String member = "/groups/" + groups.get(client) + "/members/" + sender;
            switch ((int) (turn % 3)) {
                case 0 -> {
                    String title = "faults group " + suffix();
                    JsonNode chat = write(
                            "create group",
                            "POST",
                            sender,
                            "/conversations",
                            Map.of(
                                    "members",
                                    List.of(readers.get(client), readers.get((client + 1) % CLIENTS)),
                                    "title",
                                    title));
                    if (chat != null
                            && acknowledgedGroupChats
                                            .get(sender)
                                            .put(chat.path("id").asText(), title)
                                    != null) {
                        violations.add("two creates were answered with conversation "
                                + chat.path("id").asText());
                    }
                }
                case 1 -> {
                    if (write("join group", "PUT", sender, member, null) != null) {
                        inGroup.put(sender, true);
                    }
                }
                default -> {
                    if (write("leave group", "DELETE", sender, member, null) != null) {
                        inGroup.put(sender, false);
                    }
                }
            }
        }

        /** A create as a client following the contract sends it: one key, retried on 503 or no answer. */
        private JsonNode write(String operation, String as, String path, Object body) throws Exception {
            return write(operation, "POST", as, path, body);
        }

        /**
         * A write as a client following the contract sends it, retried on 503 or no answer: a POST
         * with one Idempotency-Key, a PUT or DELETE as it is (idempotent by its method). Its answer
         * (an empty object for 204), or null when it was refused.
         */
        private JsonNode write(String operation, String method, String as, String path, Object body) throws Exception {
            String key = method.equals("POST") ? UUID.randomUUID().toString() : null;
            long began = System.nanoTime();
            for (int attempt = 1; ; attempt++) {
                String phaseAtSend = phase;
                HttpResponse<String> r;
                try {
                    r = send(method, path, as, key, body);
                } catch (IOException noAnswer) {
                    count(phaseAtSend, operation, attempt, "no answer");
                    r = null;
                }
                if (r != null) {
                    count(phaseAtSend, operation, attempt, Integer.toString(r.statusCode()));
                    checkProblem(operation, r);
                    if (r.statusCode() == 200 || r.statusCode() == 201 || r.statusCode() == 204) {
                        lastWriteOk.set(System.nanoTime());
                        return r.body().isEmpty() ? JSON.createObjectNode() : JSON.readTree(r.body());
                    }
                    if (r.statusCode() != 503) {
                        violations.add(
                                operation + " answered " + r.statusCode() + " on attempt " + attempt + ": " + r.body());
                        return null;
                    }
                }
                if (System.nanoTime() - began > GIVE_UP_AFTER.toNanos()) {
                    violations.add(operation + " still failing after " + GIVE_UP_AFTER + "; key " + key);
                    return null;
                }
                Thread.sleep(retryAfterMillis(r));
            }
        }

        private void read(String operation, String as, String path) throws Exception {
            String phaseAtSend = phase;
            try {
                HttpResponse<String> r = send("GET", path, as, null, null);
                count(phaseAtSend, operation, 1, Integer.toString(r.statusCode()));
                checkProblem(operation, r);
                if (r.statusCode() == 200) {
                    lastReadOk.set(System.nanoTime());
                }
            } catch (IOException noAnswer) {
                count(phaseAtSend, operation, 1, "no answer");
            }
        }

        /** Every failure is a 503 problem+json with Retry-After; a 500 is never an answer. */
        private void checkProblem(String operation, HttpResponse<String> r) {
            if (r.statusCode() >= 500) {
                boolean problem =
                        r.headers().firstValue("Content-Type").orElse("").startsWith(Problem.MEDIA_TYPE);
                if (r.statusCode() != 503
                        || !problem
                        || r.headers().firstValue("Retry-After").isEmpty()) {
                    violations.add(operation + " answered " + r.statusCode() + " "
                            + r.headers().map() + " " + r.body());
                }
            }
        }

        private void count(String phase, String operation, int attempt, String status) {
            String key = operation + (attempt == 1 ? " " : " retry ") + status;
            answers.computeIfAbsent(phase, p -> new ConcurrentHashMap<>())
                    .computeIfAbsent(key, k -> new AtomicLong())
                    .incrementAndGet();
        }

        void report() {
            for (String p : phases) {
                System.out.printf("cluster faults, %s: %s%n", p, new TreeMap<>(answers.getOrDefault(p, Map.of())));
            }
            long messages =
                    acknowledgedMessages.values().stream().mapToLong(Set::size).sum();
            System.out.printf(
                    "cluster faults: acknowledged %d pastes, %d messages, %d users%n",
                    acknowledgedPastes.size(), messages, acknowledgedUsers.size());
        }

        void verify() throws Exception {
            List<String> problems = new ArrayList<>(violations);
            if (answers.getOrDefault("quorum lost", Map.of()).keySet().stream().noneMatch(k -> k.endsWith(" 503"))
                    && answers.getOrDefault("stopping two nodes", Map.of()).keySet().stream()
                            .noneMatch(k -> k.endsWith(" 503"))) {
                problems.add("no 503 while the quorum was lost: the fault did not happen");
            }
            // While one node is down or paused, two replicas still hold every row and form a quorum:
            // the goal is no request failing on its first attempt. A stuck coordinator is bypassed by a
            // speculative execution (after 100 ms; after 500 ms for the conditional writes of
            // Cql.conditional), a stuck replica by the table's speculative_retry (cql/047). What is
            // left are statements that wait past the driver's 2 s timeout while this 2-core machine
            // runs three Cassandra nodes, the service and the load: right after the kill (the killed
            // node's queued messages) and while the returning node replays hints (its dropped-message
            // and StatusLogger lines show it). In CI runs they were 1 to 7 first attempts of about
            // 3,500, none lost: each was retried after Retry-After and answered. So up to 0.5 % of
            // writes and 1 % of reads may fail on their first attempt; each is printed, and more
            // fails the test.
            long requests = 0;
            long failedWrites = 0;
            long reads = 0;
            long failedReads = 0;
            for (String p : List.of("one node killed", "killed node back", "one node paused", "paused node back")) {
                for (Map.Entry<String, AtomicLong> answer :
                        answers.getOrDefault(p, Map.of()).entrySet()) {
                    if (answer.getKey().contains(" retry ")) {
                        continue;
                    }
                    boolean read = answer.getKey().startsWith("read");
                    long n = answer.getValue().get();
                    requests += n;
                    reads += read ? n : 0;
                    if (!answer.getKey().matches(".* 20[014]")) {
                        failedReads += read ? n : 0;
                        failedWrites += read ? 0 : n;
                        System.out.printf("cluster faults: %d x %s while %s%n", n, answer.getKey(), p);
                    }
                }
            }
            System.out.printf(
                    "cluster faults: %d of %d requests failed on their first attempt while one node was down "
                            + "or paused (%d of %d reads)%n",
                    failedWrites + failedReads, requests, failedReads, reads);
            long writes = requests - reads;
            if (failedWrites * 200 > writes) {
                problems.add(failedWrites + " of " + writes
                        + " writes failed on their first attempt while one node was down or paused");
            }
            if (failedReads * 100 > reads) {
                problems.add(failedReads + " of " + reads + " reads failed while one node was down or paused");
            }
            // pastes: every acknowledged one readable and listed once; nothing else listed
            Map<String, Integer> listed = new HashMap<>();
            String cursor = null;
            do {
                String path = "/pastes?limit=500" + (cursor == null ? "" : "&cursor=" + enc(cursor));
                JsonNode page = JSON.readTree(ok(readBack(path, null)));
                page.path("items").forEach(item -> listed.merge(item.path("id").asText(), 1, Integer::sum));
                cursor = page.path("next").isTextual() ? page.path("next").asText() : null;
            } while (cursor != null);
            listed.forEach((id, times) -> {
                if (times > 1) {
                    problems.add("paste " + id + " listed " + times + " times");
                }
                if (!acknowledgedPastes.contains(id)) {
                    problems.add("paste " + id + " listed, never acknowledged");
                }
            });
            for (String id : acknowledgedPastes) {
                if (!listed.containsKey(id)) {
                    problems.add("acknowledged paste " + id + " not listed");
                }
                int status = readBack("/pastes/" + id, null).statusCode();
                if (status != 200) {
                    problems.add("acknowledged paste " + id + " answers " + status);
                }
            }
            // messages: each conversation's history holds what was acknowledged, once; unread counts exact
            for (int c = 0; c < CLIENTS; c++) {
                String id = conversations.get(c);
                Map<String, Integer> stored = new HashMap<>();
                String next = null;
                do {
                    String path = "/conversations/" + id + "/messages?limit=100"
                            + (next == null ? "" : "&cursor=" + enc(next));
                    JsonNode page = JSON.readTree(ok(readBack(path, senders.get(c))));
                    page.path("items").forEach(m -> stored.merge(m.path("id").asText(), 1, Integer::sum));
                    next = page.path("next").isTextual() ? page.path("next").asText() : null;
                } while (next != null);
                Set<String> acknowledged = acknowledgedMessages.get(id);
                stored.forEach((m, times) -> {
                    if (times > 1) {
                        problems.add("message " + m + " stored " + times + " times");
                    }
                    if (!acknowledged.contains(m)) {
                        problems.add("message " + m + " stored, never acknowledged");
                    }
                });
                Set<String> lost = new HashSet<>(acknowledged);
                lost.removeAll(stored.keySet());
                lost.forEach(m -> problems.add("acknowledged message " + m + " lost"));
                JsonNode inbox = JSON.readTree(ok(readBack("/inbox", readers.get(c))));
                for (JsonNode entry : inbox.path("items")) {
                    if (entry.path("conversationId").asText().equals(id)
                            && entry.path("unreadCount").asLong() != acknowledged.size()) {
                        problems.add("unread count " + entry.path("unreadCount") + " for " + acknowledged.size()
                                + " messages in " + id);
                    }
                }
            }
            // group conversations: each acknowledged one once in its creator's inbox, no other of this load
            for (Map.Entry<String, Map<String, String>> chats : acknowledgedGroupChats.entrySet()) {
                Map<String, String> seen = new HashMap<>();
                String next = null;
                do {
                    String path = "/inbox" + (next == null ? "" : "?cursor=" + enc(next));
                    JsonNode page = JSON.readTree(ok(readBack(path, chats.getKey())));
                    for (JsonNode entry : page.path("items")) {
                        String title = entry.path("title").asText("");
                        String id = entry.path("conversationId").asText();
                        if (title.startsWith("faults group ") && seen.put(id, title) != null) {
                            problems.add("conversation " + id + " twice in the inbox of " + chats.getKey());
                        }
                    }
                    next = page.path("next").isTextual() ? page.path("next").asText() : null;
                } while (next != null);
                if (!seen.equals(chats.getValue())) {
                    problems.add("group conversations of " + chats.getKey() + ": acknowledged " + chats.getValue()
                            + ", in the inbox " + seen);
                }
            }
            // groups: each client's sender is a member exactly when its last acknowledged change joined
            for (int c = 0; c < CLIENTS; c++) {
                String sender = senders.get(c);
                JsonNode members =
                        JSON.readTree(ok(readBack("/groups/" + groups.get(c) + "/members?limit=500", sender)));
                boolean member = false;
                for (JsonNode m : members.path("items")) {
                    member |= m.path("username").asText().equals(sender);
                }
                if (member != inGroup.getOrDefault(sender, false)) {
                    problems.add(sender + (member ? " listed in " : " not listed in ") + groups.get(c)
                            + " after their last acknowledged change "
                            + (inGroup.getOrDefault(sender, false) ? "joined" : "left"));
                }
            }
            // users: each acknowledged sign-up holds its email, and the email lookup points at it
            for (Map.Entry<String, String> user : acknowledgedUsers.entrySet()) {
                String name = user.getKey();
                JsonNode profile = JSON.readTree(ok(readBack("/users/" + name, name)));
                if (!user.getValue().equals(profile.path("email").asText())) {
                    problems.add("user " + name + " has email " + profile.path("email"));
                }
                int lookup =
                        readBack("/users?email=" + enc(user.getValue()), name).statusCode();
                if (lookup != 200) {
                    problems.add("email lookup of " + name + " answers " + lookup);
                }
            }
            assertThat(problems)
                    .as("what the clients were told against what is stored")
                    .isEmpty();
        }
    }

    private static Map<String, Object> signUpBody(String name, String email) {
        return Map.of("username", name, "email", email);
    }

    private static HttpResponse<String> send(String method, String path, String as, String key, Object body)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (as != null) {
            request.header("Authorization", TOKENS.computeIfAbsent(as, Tokens::bearer));
        }
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String ok(HttpResponse<String> r) {
        assertThat(r.statusCode()).as("%s %s", r.uri(), r.body()).isEqualTo(200);
        return r.body();
    }

    /** A read as a client following the contract makes it (untilAnswered). */
    private static HttpResponse<String> readBack(String path, String as) throws IOException, InterruptedException {
        return untilAnswered("GET", path, as, null, new ArrayList<>());
    }

    /**
     * A request as the contract tells a client to send it: again after Retry-After while the answer is
     * 503 (for at most GIVE_UP_AFTER); {@code statuses} gets every status, the last one answered.
     */
    private static HttpResponse<String> untilAnswered(
            String method, String path, String as, Object body, List<Integer> statuses)
            throws IOException, InterruptedException {
        for (long began = System.nanoTime(); ; ) {
            HttpResponse<String> r = send(method, path, as, null, body);
            statuses.add(r.statusCode());
            if (r.statusCode() != 503 || System.nanoTime() - began > GIVE_UP_AFTER.toNanos()) {
                return r;
            }
            Thread.sleep(retryAfterMillis(r));
        }
    }

    private static long retryAfterMillis(HttpResponse<String> r) {
        long seconds = r == null
                ? 1
                : r.headers().firstValue("Retry-After").map(Long::parseLong).orElse(1L);
        return Math.min(seconds, 2) * 1000;
    }

    private static String suffix() {
        return UUID.randomUUID().toString().substring(0, 8);
    }

    private static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }
}
