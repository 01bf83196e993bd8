package dev.cqlpatterns.testsupport;

import static dev.cqlpatterns.testsupport.ContractClient.JSON;
import static dev.cqlpatterns.testsupport.ContractClient.enc;
import static dev.cqlpatterns.testsupport.ContractClient.ok;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cqlpatterns.platform.errors.Problem;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
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
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A mixed load of clients on the packaged service, and the write audit after it. Each client
 * creates pastes, sends messages in its 1:1 conversation, signs users up, creates group
 * conversations, removes and re-adds a guest of its club conversation, joins and leaves a group,
 * untags and tags again its song (one tag every client shares), and reads pastes, history and an inbox; as the contract tells it, it retries a write on 503 or
 * no answer after Retry-After (a POST with the same Idempotency-Key, a PUT or DELETE as it is).
 * The audit then checks what the clients were told against what is stored: every acknowledged
 * paste, message, user and group conversation there exactly once and nothing else, unread counts
 * exact, every inbox in order of last activity, each email lookup pointing at its user, and each
 * membership and tag as its last acknowledged change left it. Every failure is a 503 problem+json with Retry-After; a 500 is never an answer.
 *
 * <p>Tests drive it through phases (a fault begins, holds, heals) and judge the first attempts of
 * each phase: {@link #firstAttemptFailures} and {@link #answered503}.
 */
public final class AuditedLoad {
    /** The contract's unread count: exact up to 99, 100 above (the shipped cap, "99+"). */
    private static final int UNREAD_EXACT_UP_TO = 99;

    private final int clients;
    private final ContractClient http;
    private final List<String> senders = new ArrayList<>();
    private final List<String> readers = new ArrayList<>();
    private final List<String> conversations = new ArrayList<>();
    private final Map<String, Set<String>> acknowledgedMessages = new ConcurrentHashMap<>();
    private final Set<String> acknowledgedPastes = ConcurrentHashMap.newKeySet();
    private final List<String> pasteList = new CopyOnWriteArrayList<>();
    private final Map<String, String> acknowledgedUsers = new ConcurrentHashMap<>();
    /** Each client's group, and whether its sender's last acknowledged change joined or left it. */
    private final List<String> groups = new ArrayList<>();

    private final Map<String, Boolean> inGroup = new ConcurrentHashMap<>();
    /** Each client's club conversation, its guest, and whether the last acknowledged change added the guest. */
    private final List<String> clubs = new ArrayList<>();

    private final List<String> guests = new ArrayList<>();
    private final Map<Integer, Boolean> guestIn = new ConcurrentHashMap<>();
    /** The tag every client's song carries or not: whether its last acknowledged change tagged it. */
    private final String tag = "audited" + suffix();
    /**
     * How this load's paste titles start: the public list it audits is the keyspace's, and another
     * load may have run on the same keyspace before (ClusterFaultsIT's node faults, then its link faults).
     */
    private final String pasteTitle = "paste " + tag + " ";

    private final List<String> songs = new ArrayList<>();
    private final Map<Integer, Boolean> tagged = new ConcurrentHashMap<>();
    /** Group conversations: acknowledged id -> title (titles are unique), per creating sender. */
    private final Map<String, Map<String, String>> acknowledgedGroupChats = new ConcurrentHashMap<>();

    private final ConcurrentLinkedQueue<String> violations = new ConcurrentLinkedQueue<>();
    /** phase -> "operation first-attempt-status" -> count. */
    private final Map<String, Map<String, AtomicLong>> answers = new ConcurrentHashMap<>();
    /** phase -> milliseconds of each first attempt that was answered. */
    private final Map<String, ConcurrentLinkedQueue<Long>> latencies = new ConcurrentHashMap<>();
    /** phase -> each failed first attempt: operation, answer, milliseconds and the problem's detail. */
    private final Map<String, ConcurrentLinkedQueue<FailedAttempt>> failedFirstAttempts = new ConcurrentHashMap<>();
    /** What the service logged while a request ran (none unless {@link #explainFailuresWith} set it). */
    private volatile ServiceLog serviceLog = (from, to) -> List.of();

    private final List<String> phases = new ArrayList<>();
    private final AtomicBoolean running = new AtomicBoolean(true);
    /** Clients 0 to sending - 1 send; the others wait (see {@link #whileOnly}). */
    private volatile int sending = Integer.MAX_VALUE;

    private final AtomicLong lastWriteOk = new AtomicLong();
    private final AtomicLong lastReadOk = new AtomicLong();
    private final String name;
    private volatile String phase = "setup";
    /** phase -> requests sent in it that have no answer yet. */
    private final Map<String, AtomicInteger> inFlight = new ConcurrentHashMap<>();

    private ExecutorService threads;

    /** What a service logged between two instants: its warnings and errors, one line each. */
    @FunctionalInterface
    public interface ServiceLog {
        List<String> between(Instant from, Instant to) throws IOException;
    }

    /** A failed first attempt: what the client was told, and when it was sent and answered. */
    private record FailedAttempt(String told, Instant sent, Instant answered) {}

    /**
     * Each failed first attempt that {@link #firstAttemptFailures} reports also lists what the
     * service logged while it ran: CI keeps the assertion's message, not the service's log.
     */
    public void explainFailuresWith(ServiceLog log) {
        this.serviceLog = log;
    }

    /** {@code name} prefixes each printed line; {@code http} sends every request. */
    public AuditedLoad(String name, int clients, ContractClient http) {
        this.name = name;
        this.clients = clients;
        this.http = http;
    }

    /** Signs up each client's users and makes its conversations. */
    public void setUp() throws Exception {
        for (int c = 0; c < clients; c++) {
            String sender = signedUp("sender-" + c + "-" + suffix());
            String reader = signedUp("reader-" + c + "-" + suffix());
            String guest = signedUp("guest-" + c + "-" + suffix());
            HttpResponse<String> created =
                    http.send("POST", "/conversations", sender, null, Map.of("members", List.of(reader)));
            assertThat(created.statusCode()).as(created.body()).isEqualTo(201);
            String id = JSON.readTree(created.body()).path("id").asText();
            HttpResponse<String> club = http.send(
                    "POST",
                    "/conversations",
                    sender,
                    null,
                    Map.of("members", List.of(reader, guest), "title", "club " + c));
            assertThat(club.statusCode()).as(club.body()).isEqualTo(201);
            senders.add(sender);
            readers.add(reader);
            guests.add(guest);
            conversations.add(id);
            clubs.add(JSON.readTree(club.body()).path("id").asText());
            guestIn.put(c, true);
            String song = "/songs/Audited/" + sender + "/Song";
            HttpResponse<String> put = http.send("PUT", song, sender, null, Map.of("tags", List.of(tag)));
            assertThat(put.statusCode()).as(put.body()).isEqualTo(201);
            songs.add(song);
            tagged.put(c, true);
            acknowledgedMessages.put(id, ConcurrentHashMap.newKeySet());
            groups.add("audited-" + suffix());
            acknowledgedGroupChats.put(sender, new ConcurrentHashMap<>());
        }
    }

    private String signedUp(String name) throws Exception {
        HttpResponse<String> r = http.send("POST", "/users", name, null, signUpBody(name, name + "@example.com"));
        assertThat(r.statusCode()).as(r.body()).isEqualTo(201);
        acknowledgedUsers.put(name, name + "@example.com");
        return name;
    }

    /** Starts the clients; after {@link #stop} they may start again, an audit in between. */
    public void start() {
        running.set(true);
        threads = Executors.newFixedThreadPool(clients);
        for (int c = 0; c < clients; c++) {
            int client = c;
            threads.submit(() -> {
                for (long n = 0; running.get(); n++) {
                    try {
                        while (client >= sending && running.get()) {
                            Thread.sleep(50);
                        }
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

    /** From now on, requests count under {@code name}; returns after {@code hold}. */
    public void phase(String name, Duration hold) throws InterruptedException {
        phase = name;
        phases.add(name);
        System.out.printf("%s: %s%n", this.name, name);
        Thread.sleep(hold.toMillis());
    }

    /**
     * From now on, requests count under {@code name}; returns once every request sent in an earlier
     * phase has its answer (at most {@link ContractClient#GIVE_UP_AFTER}), so that none of them
     * meets what the caller does next: a create group sent 1.8 s before two nodes were stopped was
     * refused by their stop, and counted against the phase it was sent in.
     */
    public void phaseOnceAnswered(String name) throws InterruptedException {
        Set<String> earlier = Set.copyOf(phases);
        phase(name, Duration.ZERO);
        long deadline = System.nanoTime() + ContractClient.GIVE_UP_AFTER.toNanos();
        while (System.nanoTime() < deadline
                && earlier.stream()
                        .anyMatch(p ->
                                inFlight.getOrDefault(p, new AtomicInteger()).get() > 0)) {
            Thread.sleep(10);
        }
    }

    /**
     * Runs {@code step} with only {@code clients} of the clients sending, then all of them again. On
     * these 2 cores a node restarted under the full load of 8 clients took 58 and 80 s to answer CQL
     * (its JVM starved of CPU), 33 and 44 s under one client, 12 s with the quorum lost (every
     * request refused at once); the requests that meet it while it boots are still sent, by fewer
     * clients.
     */
    public void whileOnly(int clients, Runnable step) {
        sending = clients;
        try {
            step.run();
        } finally {
            sending = Integer.MAX_VALUE;
        }
    }

    /** Stops the clients; a write in its retry loop finishes (or gives up) first. */
    public void stop() throws InterruptedException {
        running.set(false);
        if (threads == null) {
            return;
        }
        threads.shutdown();
        assertThat(threads.awaitTermination(ContractClient.GIVE_UP_AFTER.toSeconds() + 30, TimeUnit.SECONDS))
                .isTrue();
    }

    /** Time from {@code since} until a write and a read have both succeeded after it. */
    public Duration fullServiceSince(long since, Duration atMost) throws InterruptedException {
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
                String title = pasteTitle + suffix();
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
                } else if (n % 48 == 11) {
                    clubStep(client);
                } else if (n % 48 == 35) {
                    tagStep(client);
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
                String title = "audited group " + suffix();
                JsonNode chat = write(
                        "create group",
                        "POST",
                        sender,
                        "/conversations",
                        Map.of(
                                "members",
                                List.of(readers.get(client), readers.get((client + 1) % clients)),
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

    /** The sender removes its club's guest, or adds them back. */
    private void clubStep(int client) throws Exception {
        boolean add = !guestIn.get(client);
        String path = "/conversations/" + clubs.get(client) + "/members/" + guests.get(client);
        if (write(add ? "add member" : "remove member", add ? "PUT" : "DELETE", senders.get(client), path, null)
                != null) {
            guestIn.put(client, add);
        }
    }

    /** The sender removes its song's tag, or puts it back. */
    private void tagStep(int client) throws Exception {
        boolean add = !tagged.get(client);
        String path = songs.get(client) + "/tags/" + tag;
        if (write(add ? "tag song" : "untag song", add ? "PUT" : "DELETE", senders.get(client), path, null) != null) {
            tagged.put(client, add);
        }
    }

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
            long sent = System.nanoTime();
            HttpResponse<String> r;
            try {
                r = send(phaseAtSend, method, path, as, key, body);
            } catch (IOException noAnswer) {
                count(phaseAtSend, operation, attempt, "no answer", sent);
                failed(phaseAtSend, operation, attempt, sent, null, noAnswer.toString());
                r = null;
            }
            if (r != null) {
                count(phaseAtSend, operation, attempt, Integer.toString(r.statusCode()), sent);
                failed(phaseAtSend, operation, attempt, sent, r, r.body());
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
            if (System.nanoTime() - began > ContractClient.GIVE_UP_AFTER.toNanos()) {
                violations.add(operation + " still failing after " + ContractClient.GIVE_UP_AFTER + "; key " + key);
                return null;
            }
            Thread.sleep(ContractClient.retryAfterMillis(r));
        }
    }

    private void read(String operation, String as, String path) throws Exception {
        String phaseAtSend = phase;
        long sent = System.nanoTime();
        try {
            HttpResponse<String> r = send(phaseAtSend, "GET", path, as, null, null);
            count(phaseAtSend, operation, 1, Integer.toString(r.statusCode()), sent);
            failed(phaseAtSend, operation, 1, sent, r, r.body());
            checkProblem(operation, r);
            if (r.statusCode() == 200) {
                lastReadOk.set(System.nanoTime());
            }
        } catch (IOException noAnswer) {
            count(phaseAtSend, operation, 1, "no answer", sent);
            failed(phaseAtSend, operation, 1, sent, null, noAnswer.toString());
        }
    }

    /** {@code http.send}, counted in flight under {@code phase} until it has its answer. */
    private HttpResponse<String> send(String phase, String method, String path, String as, String key, Object body)
            throws IOException, InterruptedException {
        AtomicInteger flying = inFlight.computeIfAbsent(phase, p -> new AtomicInteger());
        flying.incrementAndGet();
        try {
            return http.send(method, path, as, key, body);
        } finally {
            flying.decrementAndGet();
        }
    }

    /** Keeps a first attempt that was not answered 200, 201 or 204, with what it was told. */
    private void failed(String phase, String operation, int attempt, long sent, HttpResponse<String> r, String told) {
        int status = r == null ? 0 : r.statusCode();
        if (attempt == 1 && status != 200 && status != 201 && status != 204) {
            long ms = (System.nanoTime() - sent) / 1_000_000;
            Instant answered = Instant.now();
            failedFirstAttempts
                    .computeIfAbsent(phase, p -> new ConcurrentLinkedQueue<>())
                    .add(new FailedAttempt(
                            String.format(
                                    "%s %s after %d ms: %s",
                                    operation,
                                    r == null ? "no answer" : status,
                                    ms,
                                    told.length() > 400 ? told.substring(0, 400) + "..." : told),
                            answered.minusMillis(ms),
                            answered));
        }
    }

    private void checkProblem(String operation, HttpResponse<String> r) {
        if (r.statusCode() >= 500) {
            boolean problem = r.headers().firstValue("Content-Type").orElse("").startsWith(Problem.MEDIA_TYPE);
            if (r.statusCode() != 503
                    || !problem
                    || r.headers().firstValue("Retry-After").isEmpty()) {
                violations.add(operation + " answered " + r.statusCode() + " "
                        + r.headers().map() + " " + r.body());
            }
        }
    }

    private void count(String phase, String operation, int attempt, String status, long sent) {
        String key = operation + (attempt == 1 ? " " : " retry ") + status;
        answers.computeIfAbsent(phase, p -> new ConcurrentHashMap<>())
                .computeIfAbsent(key, k -> new AtomicLong())
                .incrementAndGet();
        if (attempt == 1 && !status.equals("no answer")) {
            latencies
                    .computeIfAbsent(phase, p -> new ConcurrentLinkedQueue<>())
                    .add((System.nanoTime() - sent) / 1_000_000);
        }
    }

    /** Prints each phase's answers and first-attempt latencies, and what was acknowledged. */
    public void report() {
        for (String p : phases) {
            System.out.printf("%s, %s: %s%n", name, p, new TreeMap<>(answers.getOrDefault(p, Map.of())));
            List<Long> ms = new ArrayList<>(latencies.getOrDefault(p, new ConcurrentLinkedQueue<>()));
            if (!ms.isEmpty()) {
                ms.sort(null);
                System.out.printf(
                        "%s, %s: %d answered first attempts, p50 %d ms, p99 %d ms, max %d ms%n",
                        name,
                        p,
                        ms.size(),
                        ms.get(ms.size() / 2),
                        ms.get(Math.min(ms.size() - 1, (int) Math.ceil(ms.size() * 0.99) - 1)),
                        ms.get(ms.size() - 1));
            }
        }
        long messages =
                acknowledgedMessages.values().stream().mapToLong(Set::size).sum();
        System.out.printf(
                "%s: acknowledged %d pastes, %d messages, %d users%n",
                name, acknowledgedPastes.size(), messages, acknowledgedUsers.size());
    }

    /** True when some request sent during one of {@code phases} was answered 503 on its first attempt. */
    public boolean answered503(String... phases) {
        for (String p : phases) {
            if (answers.getOrDefault(p, Map.of()).keySet().stream()
                    .anyMatch(k -> !k.contains(" retry ") && k.endsWith(" 503"))) {
                return true;
            }
        }
        return false;
    }

    /**
     * The first attempts of {@code phases} that were not answered 200, 201 or 204, each printed; a
     * problem when more than {@code writeShare} of the writes or {@code readShare} of the reads failed.
     */
    public List<String> firstAttemptFailures(List<String> phases, double writeShare, double readShare) {
        long requests = 0;
        long failedWrites = 0;
        long reads = 0;
        long failedReads = 0;
        for (String p : phases) {
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
                    System.out.printf("%s: %d x %s while %s%n", name, n, answer.getKey(), p);
                }
            }
        }
        System.out.printf(
                "%s: %d of %d requests failed on their first attempt during %s (%d of %d reads)%n",
                name, failedWrites + failedReads, requests, phases, failedReads, reads);
        List<String> problems = new ArrayList<>();
        long writes = requests - reads;
        if (failedWrites > writes * writeShare) {
            problems.add(failedWrites + " of " + writes + " writes failed on their first attempt during " + phases);
        }
        if (failedReads > reads * readShare) {
            problems.add(failedReads + " of " + reads + " reads failed on their first attempt during " + phases);
        }
        if (!problems.isEmpty()) {
            // What each failed request was told, so that a run whose log is gone (CI) still says why.
            for (String p : phases) {
                for (FailedAttempt failure : failedFirstAttempts.getOrDefault(p, new ConcurrentLinkedQueue<>()).stream()
                        .limit(10)
                        .toList()) {
                    problems.add("while " + p + ": " + failure.told());
                    try {
                        serviceLog.between(failure.sent(), failure.answered()).stream()
                                .limit(8)
                                .forEach(line -> problems.add("  the service logged meanwhile: " + line));
                    } catch (IOException e) {
                        problems.add("  the service's log could not be read: " + e);
                    }
                }
            }
        }
        return problems;
    }

    /**
     * What the clients were told against what is stored: each difference, and each violation seen
     * since the last audit. Run it while the clients are stopped.
     */
    public List<String> audit() throws Exception {
        List<String> problems = new ArrayList<>();
        for (String v; (v = violations.poll()) != null; ) {
            problems.add(v);
        }
        auditPastes(problems);
        auditMessages(problems);
        auditGroupChats(problems);
        auditMemberships(problems);
        auditTag(problems);
        auditUsers(problems);
        return problems;
    }

    /** Every acknowledged paste readable and listed once; no other paste of this load listed. */
    private void auditPastes(List<String> problems) throws Exception {
        Map<String, Integer> listed = new HashMap<>();
        String cursor = null;
        do {
            String path = "/pastes?limit=500" + (cursor == null ? "" : "&cursor=" + enc(cursor));
            JsonNode page = JSON.readTree(ok(http.readBack(path, null)));
            page.path("items").forEach(item -> {
                if (item.path("title").asText().startsWith(pasteTitle)) {
                    listed.merge(item.path("id").asText(), 1, Integer::sum);
                }
            });
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
            int status = http.readBack("/pastes/" + id, null).statusCode();
            if (status != 200) {
                problems.add("acknowledged paste " + id + " answers " + status);
            }
        }
    }

    /** Each conversation's history holds what was acknowledged, once; unread counts exact. */
    private void auditMessages(List<String> problems) throws Exception {
        for (int c = 0; c < clients; c++) {
            String id = conversations.get(c);
            Map<String, Integer> stored = new HashMap<>();
            String oldest = null;
            String next = null;
            do {
                String path =
                        "/conversations/" + id + "/messages?limit=100" + (next == null ? "" : "&cursor=" + enc(next));
                JsonNode page = JSON.readTree(ok(http.readBack(path, senders.get(c))));
                for (JsonNode m : page.path("items")) {
                    stored.merge(m.path("id").asText(), 1, Integer::sum);
                    oldest = m.path("sentAt").asText(); // newest first: the last one is the oldest
                }
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
            JsonNode entry = inboxEntry(readers.get(c), id, problems);
            inboxEntry(senders.get(c), id, problems);
            if (entry == null) {
                problems.add("conversation " + id + " missing from the inbox of " + readers.get(c));
            } else if (entry.path("unreadCount").asLong() != Math.min(acknowledged.size(), UNREAD_EXACT_UP_TO + 1)) {
                problems.add("unread count " + entry.path("unreadCount") + " for " + acknowledged.size()
                        + " messages in " + id);
            } else if (oldest != null
                    && !oldest.equals(entry.path("firstUnreadAt").asText())) {
                // The reader never reads: their first unread message is the conversation's first.
                problems.add("first unread at " + entry.path("firstUnreadAt") + " in " + id + ", its first message at "
                        + oldest);
            }
        }
    }

    /**
     * {@code user}'s inbox entry of {@code conversation}, paging through the whole inbox (null when it
     * is not listed); an inbox out of order of last activity, or listing a conversation twice, is a
     * problem.
     */
    private JsonNode inboxEntry(String user, String conversation, List<String> problems) throws Exception {
        JsonNode found = null;
        Set<String> seen = new HashSet<>();
        String previous = null;
        String next = null;
        do {
            String path = "/inbox" + (next == null ? "" : "?cursor=" + enc(next));
            JsonNode page = JSON.readTree(ok(http.readBack(path, user)));
            for (JsonNode entry : page.path("items")) {
                String id = entry.path("conversationId").asText();
                String lastAt = entry.path("lastAt").asText();
                if (!seen.add(id)) {
                    problems.add("conversation " + id + " twice in the inbox of " + user);
                }
                if (previous != null && Instant.parse(lastAt).isAfter(Instant.parse(previous))) {
                    problems.add("the inbox of " + user + " lists " + id + " (last at " + lastAt + ") after one last "
                            + "at " + previous);
                }
                previous = lastAt;
                if (id.equals(conversation)) {
                    found = entry;
                }
            }
            next = page.path("next").isTextual() ? page.path("next").asText() : null;
        } while (next != null);
        return found;
    }

    /** Each acknowledged group conversation once in its creator's inbox, no other of this load. */
    private void auditGroupChats(List<String> problems) throws Exception {
        for (Map.Entry<String, Map<String, String>> chats : acknowledgedGroupChats.entrySet()) {
            Map<String, String> seen = new HashMap<>();
            String next = null;
            do {
                String path = "/inbox" + (next == null ? "" : "?cursor=" + enc(next));
                JsonNode page = JSON.readTree(ok(http.readBack(path, chats.getKey())));
                for (JsonNode entry : page.path("items")) {
                    String title = entry.path("title").asText("");
                    String id = entry.path("conversationId").asText();
                    if (title.startsWith("audited group ") && seen.put(id, title) != null) {
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
    }

    /** Each group's and club's membership as the last acknowledged change left it. */
    private void auditMemberships(List<String> problems) throws Exception {
        for (int c = 0; c < clients; c++) {
            String sender = senders.get(c);
            boolean joined = inGroup.getOrDefault(sender, false);
            HttpResponse<String> list = http.readBack("/groups/" + groups.get(c) + "/members?limit=500", sender);
            // A group exists from its first join: none yet (a slow start) lists no one.
            JsonNode members = list.statusCode() == 404 && !joined ? JSON.createObjectNode() : JSON.readTree(ok(list));
            boolean member = false;
            for (JsonNode m : members.path("items")) {
                member |= m.path("username").asText().equals(sender);
            }
            if (member != joined) {
                problems.add(sender + (member ? " listed in " : " not listed in ") + groups.get(c)
                        + " after their last acknowledged change " + (joined ? "joined" : "left"));
            }
            JsonNode club = JSON.readTree(ok(http.readBack("/conversations/" + clubs.get(c), sender)));
            boolean guest = false;
            for (JsonNode m : club.path("members")) {
                guest |= m.asText().equals(guests.get(c));
            }
            boolean added = guestIn.get(c);
            if (guest != added) {
                problems.add(guests.get(c) + (guest ? " a member of " : " not a member of ") + clubs.get(c)
                        + " after their last acknowledged change " + (added ? "added" : "removed") + " them");
            }
        }
    }

    /** Each client's song listed under the shared tag exactly when its last acknowledged change tagged it. */
    private void auditTag(List<String> problems) throws Exception {
        Map<String, Integer> listed = new HashMap<>();
        String next = null;
        do {
            String path = "/songs?limit=500&tag=" + tag + (next == null ? "" : "&cursor=" + enc(next));
            JsonNode page = JSON.readTree(ok(http.readBack(path, null)));
            page.path("items").forEach(s -> listed.merge(s.path("album").asText(), 1, Integer::sum));
            next = page.path("next").isTextual() ? page.path("next").asText() : null;
        } while (next != null);
        for (int c = 0; c < clients; c++) {
            int times = listed.getOrDefault(senders.get(c), 0);
            if (times != (tagged.get(c) ? 1 : 0)) {
                problems.add(songs.get(c) + " listed " + times + " times under " + tag + " after its last "
                        + "acknowledged change " + (tagged.get(c) ? "tagged" : "untagged") + " it");
            }
        }
    }

    /** Each acknowledged sign-up holds its email, and the email lookup points at it. */
    private void auditUsers(List<String> problems) throws Exception {
        for (Map.Entry<String, String> user : acknowledgedUsers.entrySet()) {
            String name = user.getKey();
            JsonNode profile = JSON.readTree(ok(http.readBack("/users/" + name, name)));
            if (!user.getValue().equals(profile.path("email").asText())) {
                problems.add("user " + name + " has email " + profile.path("email"));
            }
            int lookup =
                    http.readBack("/users?email=" + enc(user.getValue()), name).statusCode();
            if (lookup != 200) {
                problems.add("email lookup of " + name + " answers " + lookup);
            }
        }
    }

    public static Map<String, Object> signUpBody(String name, String email) {
        return Map.of("username", name, "email", email);
    }

    public static String suffix() {
        return UUID.randomUUID().toString().substring(0, 8);
    }
}
