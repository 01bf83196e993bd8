package dev.cqlpatterns.bench;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.IntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Open-model benchmark: each route of the service, and the same route's own prepared statements sent
 * straight through the Java driver (the "driver floor"), at a fixed arrival rate, in the same run.
 * Request i of a phase is due at start + i/rate whatever happened to the ones before it, and its
 * latency runs from when it was due, so a slow answer delays nothing and queueing is counted (no
 * coordinated omission). Prints a table per stage (rows in the tables), the service/floor ratios
 * against the goals of issue 15, the service's RSS, and writes report.html (SVG plots) and results.tsv.
 *
 * <p>Bulk rows are seeded through the driver; the messenger's users, conversations and messages through
 * the service's own HTTP routes, so the floors read what the service wrote. The floor statements copy the
 * service's (same text, same order, same dependencies between them), and each route's first measurement
 * checks that a floor call sends as many statements as one request of the service (its X-Statements);
 * when a route's statements change, change its floor here too, or the ratio compares different work.
 * The service is called through {@link AsyncHttp} (Netty), not the JDK's HttpClient, which saturates
 * near 3,000 requests a second on 2 cores.
 */
public final class OpenBench {
    private static final int PAGE = 50;
    /**
     * Buckets a walk lists: its budget + 1, as BucketWalk does; the budget is cql-patterns.paging.max-buckets
     * (31) and, for latest joiners, cql-patterns.groups.latest-max-days (also 31).
     */
    private static final int WALKED_BUCKETS = 32;
    /** InboxRows.SUMMARY: message_id of a summary row of inbox_by_user. */
    private static final UUID SUMMARY_ID = UUID.fromString("00000000-0000-1000-8000-000000000000");
    /** InboxRows.NEVER_READ: the previous_message_id of a conversation's first message (messages_by_previous). */
    private static final UUID NEVER_READ = Uuids.startOf(0);
    /**
     * Conversations the send route and its floor write to in turn (Bob, Carol, Dave and Erin in each). Every
     * send of a conversation claims its position with a conditional write (MessagePositions), so sends to one
     * conversation contend; spread over 64, a few hundred a second stay a few a second per conversation.
     */
    private static final int SEND_CONVERSATIONS = 64;
    /** Alice's conversations without messages, beside the history and the unread one: 10 in her inbox. */
    private static final int QUIET_CONVERSATIONS = 8;
    /** MessagePositions' claims: cql-patterns.cassandra.cas-attempts (10) times ATTEMPTS_PER_CAS_ATTEMPT (5). */
    private static final int CLAIM_ATTEMPTS = 50;
    /** MessagePositions.claimTtl: cql-patterns.idempotency.ttl (24 h) and an hour, in seconds. */
    private static final int CLAIM_TTL = 25 * 3600;
    /** cql-patterns.clickstream.shards: a click page reads every shard of a month. */
    private static final int CLICK_SHARDS = 4;
    /** cql-patterns.clickstream.max-span-months: GET /clicks without from lists this many months back from now. */
    private static final int CLICK_SPAN_MONTHS = 24;
    /** cql-patterns.groups.buckets: the bucket count a group is created with. */
    private static final int GROUP_BUCKETS = 16;
    /**
     * PublicPasteList's listing periods in seconds (cql-patterns.pastebin.listing-periods, then the list's retention of
     * 30 days), shortest first.
     */
    private static final int[] LISTING_PERIODS = {60, 600, 3_600, 21_600, 86_400, 604_800, 2_592_000};

    record Options(
            String baseUrl,
            String contactPoint,
            String datacenter,
            String keyspace,
            List<Integer> rates,
            int seconds,
            int warmupSeconds,
            List<Integer> rows,
            int pid,
            Path out,
            String root,
            Set<String> routes,
            int saturate,
            int rounds,
            int loadMinutes,
            int connections,
            boolean half) {
        static Options parse(String[] args) {
            Map<String, String> o = new TreeMap<>();
            for (int a = 0; a < args.length; a++) {
                if (args[a].equals("-h") || args[a].equals("--help")) {
                    System.out.println(
                            "usage: bin/bench-open [--rates 200,600] [--duration 3] [--warmup 1] [--rows 1000,100000]"
                                    + " [--routes http,paste,history,latest,joiners,songs,clicks,inbox,create-paste,send] [--out target/bench-open]"
                                    + " [--connections 64] [--saturate 16 [--rounds 3] [--load-minutes 10] [--half]]");
                    System.exit(0);
                }
                if (args[a].equals("--half")) {
                    o.put("half", "true");
                    continue;
                }
                if (!args[a].startsWith("--") || a + 1 >= args.length) {
                    fail("bad option " + args[a] + " (try --help)");
                }
                o.put(args[a].substring(2), args[++a]);
            }
            Set<String> known = Set.of(
                    "base-url",
                    "cql",
                    "datacenter",
                    "keyspace",
                    "rates",
                    "duration",
                    "warmup",
                    "rows",
                    "pid",
                    "out",
                    "root",
                    "routes",
                    "saturate",
                    "rounds",
                    "load-minutes",
                    "connections",
                    "half");
            o.keySet().stream().filter(k -> !known.contains(k)).findAny().ifPresent(k -> fail("unknown option --" + k));
            return new Options(
                    o.getOrDefault("base-url", "http://localhost:8080").replaceAll("/+$", ""),
                    o.getOrDefault("cql", "127.0.0.1:9042"),
                    o.getOrDefault("datacenter", "datacenter1"),
                    o.getOrDefault("keyspace", "cql_patterns"),
                    ints(o.getOrDefault("rates", "200,600")),
                    Integer.parseInt(o.getOrDefault("duration", "3")),
                    Integer.parseInt(o.getOrDefault("warmup", "1")),
                    ints(o.getOrDefault("rows", "1000,100000")),
                    Integer.parseInt(o.getOrDefault("pid", "0")),
                    Path.of(o.getOrDefault("out", "target/bench-open")),
                    o.getOrDefault("root", "."),
                    new TreeSet<>(List.of(o.getOrDefault("routes", String.join(",", ROUTE_KEYS))
                            .split(","))),
                    Integer.parseInt(o.getOrDefault("saturate", "0")),
                    Integer.parseInt(o.getOrDefault("rounds", "3")),
                    Integer.parseInt(o.getOrDefault("load-minutes", "0")),
                    Integer.parseInt(o.getOrDefault("connections", "64")),
                    o.containsKey("half"));
        }

        private static List<Integer> ints(String csv) {
            return Arrays.stream(csv.split(","))
                    .map(String::strip)
                    .map(Integer::parseInt)
                    .sorted()
                    .toList();
        }
    }

    static final String HTTP_ALONE = "http";
    static final List<String> ROUTE_KEYS = List.of(
            HTTP_ALONE, "paste", "history", "latest", "joiners", "songs", "clicks", "inbox", "create-paste", "send");

    /** One route: how to call the service, and the same work through the driver. */
    record Route(
            String key,
            String name,
            boolean read,
            boolean sized,
            IntFunction<AsyncHttp.Request> http,
            IntFunction<CompletionStage<?>> floor) {}

    /** Latencies (from when each request was due) and errors of one phase. */
    record Result(
            String route,
            String target,
            int rate,
            int rows,
            int sent,
            int ok,
            double achieved,
            double p50,
            double p90,
            double p99,
            double max,
            String errors) {
        static Result of(
                String route,
                String target,
                int rate,
                int rows,
                long[] nanos,
                boolean[] okFlags,
                long spanNanos,
                Map<String, LongAdder> errors) {
            long[] ok = new long[nanos.length];
            int n = 0;
            for (int i = 0; i < nanos.length; i++) {
                if (okFlags[i]) {
                    ok[n++] = nanos[i];
                }
            }
            long[] sorted = Arrays.copyOf(ok, n);
            Arrays.sort(sorted);
            StringBuilder e = new StringBuilder();
            new TreeMap<>(errors)
                    .forEach((k, v) -> e.append(e.length() == 0 ? "" : " ")
                            .append(k)
                            .append('x')
                            .append(v.sum()));
            return new Result(
                    route,
                    target,
                    rate,
                    rows,
                    nanos.length,
                    n,
                    n / (spanNanos / 1e9),
                    pct(sorted, .5),
                    pct(sorted, .9),
                    pct(sorted, .99),
                    n == 0 ? Double.NaN : sorted[n - 1] / 1e6,
                    e.length() == 0 ? "-" : e.toString());
        }

        private static double pct(long[] sorted, double p) {
            if (sorted.length == 0) {
                return Double.NaN;
            }
            return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1))] / 1e6;
        }
    }

    private final Options options;
    private final String run = randomId();
    private final AsyncHttp http;
    private final CqlSession session;
    private final List<Result> results = new ArrayList<>();
    private final String alice;
    private final String bob;
    private final String carol;
    private final String dave;
    private final String erin;
    private final String aliceToken;
    private final String bobToken;
    /** The history conversation (Alice and Bob), and those sends go to: made by the service (seedConversations). */
    private UUID history;

    private final List<UUID> sendTo = new ArrayList<>();
    /** Every statement a floor sends (floor()), so a floor call's count can be set against X-Statements. */
    private final LongAdder floorStatements = new LongAdder();
    /** By route key: the statements of one service request (X-Statements) and of one floor call, checked once. */
    private final Map<String, String> statements = new HashMap<>();
    /** The group whose joiners are listed, and the tag whose songs are (names the service accepts). */
    private final String group;

    private final String tag;
    private final List<UUID> pastes = new ArrayList<>();
    private int seededRows;
    private int measurements;

    private OpenBench(Options options) {
        this.options = options;
        String[] hp = options.contactPoint().split(":");
        this.session = CqlSession.builder()
                .addContactPoint(new InetSocketAddress(hp[0], Integer.parseInt(hp[1])))
                .withLocalDatacenter(options.datacenter())
                .withConfigLoader(DriverConfigLoader.programmaticBuilder()
                        .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                        // Like the service: enough requests per connection that the floor never queues in the client.
                        .withInt(DefaultDriverOption.CONNECTION_MAX_REQUESTS, 2048)
                        // The service's levels (quarkus.cassandra.request.*).
                        .withString(DefaultDriverOption.REQUEST_CONSISTENCY, "LOCAL_ONE")
                        .withString(DefaultDriverOption.REQUEST_SERIAL_CONSISTENCY, "LOCAL_SERIAL")
                        .build())
                .build();
        this.http = new AsyncHttp(options.baseUrl(), options.connections());
        this.alice = "bo" + run + "a";
        this.bob = "bo" + run + "b";
        this.carol = "bo" + run + "c";
        this.dave = "bo" + run + "d";
        this.erin = "bo" + run + "e";
        this.group = "bo" + run + "g";
        this.tag = "bo" + run + "t";
        this.aliceToken = token(alice);
        this.bobToken = token(bob);
    }

    public static void main(String[] args) throws Exception {
        Options options = Options.parse(args);
        OpenBench bench = new OpenBench(options);
        try {
            bench.run();
        } finally {
            bench.http.close();
            bench.session.close();
        }
        System.exit(0);
    }

    // ---- Statements: the service's own text (see each class named) --------------------------------

    private PreparedStatement prepare(String cql) {
        return session.prepare(cql.replace("{ks}", options.keyspace()));
    }

    /** A floor's statement, counted (see {@link #checkStatements}). */
    private CompletionStage<AsyncResultSet> floor(Statement<?> statement) {
        floorStatements.increment();
        return session.executeAsync(statement);
    }

    /** The rows of a result's first page (every floor read fits in one). */
    private static List<Row> rowsOf(AsyncResultSet rs) {
        List<Row> rows = new ArrayList<>();
        rs.currentPage().forEach(rows::add);
        return rows;
    }

    /**
     * InboxByDay's walk from day {@code index} of {@code days} (newest first) until the page holds more than
     * {@link #PAGE} summaries or the days run out: each day's rows (InboxRows.DAY_ROWS), then the summaries of
     * those rows (InboxRows.SOME_SUMMARIES, IN), kept when their last activity falls on that day. One IN read a
     * day: the service splits a day of more than page + 16 rows, which this scenario has not.
     */
    private CompletionStage<List<Row>> inboxDays(
            PreparedStatement dayRows, PreparedStatement someSummaries, List<Integer> days, int index, List<Row> page) {
        if (page.size() > PAGE || index >= days.size() || index >= WALKED_BUCKETS - 1) {
            return CompletableFuture.completedFuture(page);
        }
        int day = days.get(index);
        return floor(dayRows.bind(alice, day)).thenCompose(rows -> {
            List<UUID> ids =
                    rowsOf(rows).stream().map(r -> r.getUuid("conversation_id")).toList();
            if (ids.isEmpty()) {
                return inboxDays(dayRows, someSummaries, days, index + 1, page);
            }
            return floor(someSummaries.bind(alice, ids)).thenCompose(summaries -> {
                for (Row s : rowsOf(summaries)) {
                    UUID last = s.getUuid("last_message_id");
                    Instant at =
                            last == null ? s.getInstant("joined_at") : Instant.ofEpochMilli(Uuids.unixTimestamp(last));
                    if (s.getInstant("joined_at") != null && dayKey(at) == day) {
                        page.add(s);
                    }
                }
                return inboxDays(dayRows, someSummaries, days, index + 1, page);
            });
        });
    }

    /** MessagePositions.Head: a conversation's last claim (position 0 and no message before any). */
    private record Head(long position, UUID lastMessageId, Map<String, Long> sent) {
        static Head of(Row row) {
            if (row == null || row.isNull("last_position")) {
                return new Head(0, null, Map.of());
            }
            return new Head(
                    row.getLong("last_position"),
                    row.getUuid("last_message_id"),
                    Map.copyOf(row.getMap("sent", String.class, Long.class)));
        }
    }

    /** MessagePositions.Claimed: a message's place, and the messages each member had sent once it was. */
    private record Claimed(long position, UUID messageId, UUID previousMessageId, Map<String, Long> sentAfter) {
        long othersSent(String member) {
            return position - sentAfter.getOrDefault(member, 0L);
        }
    }

    /**
     * The floor of POST /conversations/{id}/messages: SendMessage's statements without an Idempotency-Key, once
     * this process has listed the message's month (BucketRegistry.record writes time_buckets once a process, so
     * the cost line's registry write is not here): 7 + 2 x members statements.
     */
    private final class Send {
        private final PreparedStatement conversation;
        private final PreparedStatement head;
        private final PreparedStatement readState;
        private final PreparedStatement claim;
        private final PreparedStatement claimed;
        private final PreparedStatement insertMessage;
        private final PreparedStatement setConversationLast;
        private final PreparedStatement insertPrevious;
        private final PreparedStatement insertDay;
        private final PreparedStatement setLastMessage;
        private final PreparedStatement setLastUnread;

        Send(
                PreparedStatement conversation,
                PreparedStatement head,
                PreparedStatement readState,
                PreparedStatement claim,
                PreparedStatement claimed,
                PreparedStatement insertMessage,
                PreparedStatement setConversationLast,
                PreparedStatement insertPrevious,
                PreparedStatement insertDay,
                PreparedStatement setLastMessage,
                PreparedStatement setLastUnread) {
            this.conversation = conversation;
            this.head = head;
            this.readState = readState;
            this.claim = claim;
            this.claimed = claimed;
            this.insertMessage = insertMessage;
            this.setConversationLast = setConversationLast;
            this.insertPrevious = insertPrevious;
            this.insertDay = insertDay;
            this.setLastMessage = setLastMessage;
            this.setLastUnread = setLastUnread;
        }

        /**
         * SendMessage.send: the conversation (Conversations.requireMember), its head (MessagePositions.head) and
         * the sender's read state (InboxRows.readState) together; the claim; the message (Messages.INSERT); then
         * together the conversation's last message (Conversations.SET_LAST_MESSAGE), the message under the one
         * before it (MessagesByPrevious.written) and each member's InboxRows.delivered: the row of the day, then
         * the summary in a one-statement unlogged batch (InboxRows.together).
         */
        CompletionStage<?> send(UUID id, String sender, String content) {
            CompletableFuture<AsyncResultSet> c = floor(conversation.bind(id)).toCompletableFuture();
            CompletableFuture<AsyncResultSet> h = floor(head.bind(id)).toCompletableFuture();
            CompletableFuture<AsyncResultSet> r =
                    floor(readState.bind(sender, id, SUMMARY_ID)).toCompletableFuture();
            return CompletableFuture.allOf(c, h, r).thenCompose(v -> {
                Row conv = c.join().one();
                Row read = r.join().one();
                return claim(id, Uuids.random(), Head.of(h.join().one()), sender, conv, 1)
                        .thenCompose(claimed -> write(id, conv, read, claimed, sender, content));
            });
        }

        /**
         * MessagePositions.claim through CompareAndSet: a lost claim reads this request's claim at LOCAL_SERIAL
         * (CLAIMED; found: the claim held after all), then claims again on the head the lost answer sent back.
         */
        private CompletionStage<Claimed> claim(UUID id, UUID claimId, Head last, String sender, Row conv, int attempt) {
            long sentBySender = last.sent().getOrDefault(sender, 0L) + 1;
            Map<String, Long> sentAfter = new HashMap<>(last.sent());
            sentAfter.put(sender, sentBySender);
            // SendMessage.timeOf: now, or the millisecond after the newest change, message or claim when later.
            Instant at = after(Instant.now(), conv.getInstant("members_changed"));
            at = after(at, instant(conv.getUuid("last_message_id")));
            at = after(at, instant(last.lastMessageId()));
            Claimed next = new Claimed(last.position() + 1, timeuuid(at), last.lastMessageId(), sentAfter);
            return floor(this.claim.bind(
                            next.position(),
                            next.messageId(),
                            sender,
                            sentBySender,
                            id,
                            last.position() == 0 ? null : last.position(),
                            id,
                            claimId,
                            next.position(),
                            next.messageId(),
                            next.previousMessageId(),
                            sentAfter,
                            CLAIM_TTL))
                    .thenCompose(rs -> {
                        if (rs.wasApplied()) {
                            return CompletableFuture.completedFuture(next);
                        }
                        Row lost = rs.one();
                        return floor(claimed.bind(id, claimId).setConsistencyLevel(ConsistencyLevel.LOCAL_SERIAL))
                                .thenCompose(mine -> {
                                    Row row = mine.one();
                                    if (row != null && !row.isNull("position")) {
                                        return CompletableFuture.completedFuture(new Claimed(
                                                row.getLong("position"),
                                                row.getUuid("message_id"),
                                                row.getUuid("previous_message_id"),
                                                row.getMap("sent_after", String.class, Long.class)));
                                    }
                                    if (attempt >= CLAIM_ATTEMPTS) {
                                        return CompletableFuture.failedFuture(
                                                new IllegalStateException("claims kept losing"));
                                    }
                                    if (lost != null
                                            && lost.getColumnDefinitions().contains("last_position")) {
                                        return claim(id, claimId, Head.of(lost), sender, conv, attempt + 1);
                                    }
                                    return floor(head.bind(id).setConsistencyLevel(ConsistencyLevel.LOCAL_SERIAL))
                                            .thenCompose(h ->
                                                    claim(id, claimId, Head.of(h.one()), sender, conv, attempt + 1));
                                });
                    });
        }

        private CompletionStage<?> write(UUID id, Row conv, Row read, Claimed claimed, String sender, String content) {
            UUID messageId = claimed.messageId();
            Instant at = instant(messageId);
            long micros = Uuids.unixTimestamp(messageId) * 1000;
            Set<String> recipients = new TreeSet<>(conv.getSet("members", String.class));
            recipients.remove(sender);
            String preview = content.strip();
            UUID previous = claimed.previousMessageId() == null ? NEVER_READ : claimed.previousMessageId();
            return floor(insertMessage.bind(id, monthKey(at), messageId, sender, content, recipients, Map.of()))
                    .thenCompose(m -> {
                        List<CompletableFuture<?>> writes = new ArrayList<>();
                        writes.add(floor(setConversationLast.bind(micros, messageId, id))
                                .toCompletableFuture());
                        // SendMessage.sendersSummary: read_up_to moves with the message when the sender had read
                        // every message from others before it.
                        boolean readUpToIt = read != null
                                && read.getInstant("joined_at") != null
                                && !read.isNull("others_read")
                                && read.getLong("others_read") == claimed.othersSent(sender);
                        BoundStatement own = setLastMessage.bind(
                                micros,
                                messageId,
                                sender,
                                preview,
                                claimed.othersSent(sender),
                                messageId,
                                claimed.othersSent(sender),
                                sender,
                                id,
                                SUMMARY_ID);
                        writes.add(delivered(
                                sender,
                                id,
                                at,
                                micros,
                                readUpToIt ? own : own.unset("read_up_to").unset("others_read")));
                        for (String member : recipients) {
                            writes.add(delivered(
                                    member,
                                    id,
                                    at,
                                    micros,
                                    setLastUnread.bind(
                                            micros,
                                            messageId,
                                            sender,
                                            preview,
                                            claimed.othersSent(member),
                                            member,
                                            id,
                                            SUMMARY_ID)));
                        }
                        writes.add(floor(insertPrevious.bind(id, previous, messageId, sender, micros))
                                .toCompletableFuture());
                        return CompletableFuture.allOf(writes.toArray(CompletableFuture<?>[]::new));
                    });
        }

        /** InboxRows.delivered, on the message's own day (no row to move): the day's row, then the summary. */
        private CompletableFuture<?> delivered(
                String member, UUID id, Instant at, long micros, BoundStatement summary) {
            return floor(insertDay.bind(member, dayKey(at), id, at, micros))
                    .thenCompose(d -> floor(BatchStatement.newInstance(DefaultBatchType.UNLOGGED, summary)
                            .setIdempotent(true)))
                    .toCompletableFuture();
        }
    }

    /** Conversations.Conversation.after: {@code now}, or the millisecond after {@code earlier} when that is later. */
    private static Instant after(Instant now, Instant earlier) {
        if (earlier == null) {
            return now;
        }
        Instant next = earlier.truncatedTo(java.time.temporal.ChronoUnit.MILLIS).plusMillis(1);
        return now.isBefore(next) ? next : now;
    }

    private static Instant instant(UUID timeuuid) {
        return timeuuid == null ? null : Instant.ofEpochMilli(Uuids.unixTimestamp(timeuuid));
    }

    private void run() throws Exception {
        // PasteRow.READ
        PreparedStatement readPaste =
                prepare("SELECT id, title, body, is_private, secret_hash, created_at, modified_at, "
                        + "expires_at, version FROM {ks}.pastes_by_id WHERE id = ?");
        // Conversations.SELECT, BucketRegistry.NEWEST_FIRST, ConversationHistory.FROM_TOP
        PreparedStatement conversation = prepare("SELECT id, members, title, direct, created_by, created_at, "
                + "last_message_id, members_changed FROM {ks}.conversations WHERE id = ?");
        PreparedStatement buckets = prepare(
                "SELECT bucket FROM {ks}.time_buckets WHERE series = ? AND entity = ? AND bucket <= ? AND bucket >= ? LIMIT ?");
        PreparedStatement fromTop =
                prepare("SELECT conversation_id, message_id, sender, content, recipients, attachments, "
                        + "seen_by, seen_at FROM {ks}.messages_by_conversation WHERE conversation_id = ? AND bucket = ? AND message_id <= ? "
                        + "AND message_id >= ? LIMIT ?");
        // GET /pastes (LatestPublicPastes.readPeriods): per day, PartitionGenerations.STATE (the day's generation,
        // PublicPasteList.generation; 0 here: no day has moved), then PublicPasteList.NEWEST_OF_PERIOD, one per listing
        // period whose window reaches the day (all 7 today)
        PreparedStatement generation =
                prepare("SELECT current, next, moving_since, live FROM {ks}.partition_generations "
                        + "WHERE set_name = ? AND set_key = ?");
        PreparedStatement newest = prepare(
                "SELECT listed_for, created_at, id, title, expires_at "
                        + "FROM {ks}.latest_public_pastes_by_period WHERE day = ? AND listed_for = ? AND created_at > ? LIMIT ?");
        // LatestJoiners: Groups.BUCKETS beside MemberLists.generation (PartitionGenerations.STATE, set group_members;
        // 0 here: no group has moved), BucketRegistry.NEWEST_FIRST (buckets, above), then MemberLists.JOINERS
        PreparedStatement groupBuckets = prepare("SELECT buckets FROM {ks}.groups WHERE groupname = ?");
        PreparedStatement joinDay = prepare(
                "SELECT joined, username FROM {ks}.group_join_dates WHERE groupname = ? AND join_day = ? LIMIT ?");
        // SongsByTag: TagIndex's generation (PartitionGenerations.STATE, set songs_by_tag; 0 here), then TagIndex.FIRST
        PreparedStatement songsByTag =
                prepare("SELECT artist, album, song FROM {ks}.songs_by_tag WHERE tag = ? LIMIT ?");
        // Clickstream: BucketRegistry.NEWEST_FIRST (buckets, above), then Clickstream.IN_SHARD for every shard of the
        // month, in parallel
        PreparedStatement inShard = prepare(
                "SELECT click_id, ip, url FROM {ks}.clickstream WHERE year = ? AND month = ? AND shard = ? LIMIT ?");
        // GET /inbox (InboxByDay.page, then UnreadCounts.of): BucketRegistry.NEWEST_FIRST (buckets, above) over the
        // caller's days (series 'inbox'); per day listed, newest first, InboxRows.DAY_ROWS, then
        // InboxRows.SOME_SUMMARIES
        // of its rows; then MessagesByPrevious.AFTER per conversation of the page with more unread than its last
        // message
        PreparedStatement dayRows =
                prepare("SELECT conversation_id, last_at FROM {ks}.inbox_by_day WHERE username = ? AND day = ?");
        PreparedStatement someSummaries = prepare("SELECT conversation_id, title, partner, direct, joined_at, "
                + "last_message_id, last_sender, last_preview, read_up_to, others_sent, others_read, days_indexed "
                + "FROM {ks}.inbox_by_user WHERE username = ? AND kind = 0 AND conversation_id IN ?");
        PreparedStatement after = prepare("SELECT message_id, sender FROM {ks}.messages_by_previous "
                + "WHERE conversation_id = ? AND previous_message_id = ?");
        // PasteRow.CREATE, then PublicPasteList.show: the day's generation (PartitionGenerations.STATE),
        // SHOW_FOR_PERIOD
        // in it, and the generation again (PartitionGenerations.change reads until no generation is left to write);
        // the day is already listed by this process (no BucketRegistry.RECORD)
        PreparedStatement createPaste = prepare(
                "UPDATE {ks}.pastes_by_id USING TTL ? SET title = ?, body = ?, is_private = ?, "
                        + "secret_hash = ?, created_at = ?, modified_at = ?, expires_at = ?, version = ? WHERE id = ? IF version = null");
        PreparedStatement show =
                prepare("INSERT INTO {ks}.latest_public_pastes_by_period (day, listed_for, created_at, "
                        + "id, title, expires_at) VALUES (?, ?, ?, ?, ?, ?) USING TTL ? AND TIMESTAMP ?");
        // POST /conversations/{id}/messages (SendMessage): Conversations.SELECT (conversation, above),
        // MessagePositions.HEAD, InboxRows.READ_STATE; MessagePositions.CLAIM (and CLAIMED when it loses);
        // Messages.INSERT;
        // Conversations.SET_LAST_MESSAGE, MessagesByPrevious.INSERT, and per member InboxRows.INSERT_DAY, then
        // InboxRows.SET_LAST_MESSAGE (the sender) or SET_LAST_UNREAD (a recipient). See send() for the order.
        Send send = new Send(
                conversation,
                prepare("SELECT DISTINCT conversation_id, last_position, last_message_id, sent "
                        + "FROM {ks}.message_positions WHERE conversation_id = ?"),
                prepare(
                        "SELECT read_up_to, others_sent, others_read, last_message_id, joined_at FROM {ks}.inbox_by_user "
                                + "WHERE username = ? AND kind = 0 AND conversation_id = ? AND message_id = ?"),
                prepare("BEGIN BATCH "
                        + "UPDATE {ks}.message_positions SET last_position = ?, last_message_id = ?, sent[?] = ? "
                        + "WHERE conversation_id = ? IF last_position = ?; "
                        + "INSERT INTO {ks}.message_positions (conversation_id, claim, position, message_id, "
                        + "previous_message_id, sent_after) VALUES (?, ?, ?, ?, ?, ?) IF NOT EXISTS USING TTL ?; "
                        + "APPLY BATCH"),
                prepare("SELECT last_position, last_message_id, sent, position, message_id, previous_message_id, "
                        + "sent_after FROM {ks}.message_positions WHERE conversation_id = ? AND claim = ?"),
                prepare("INSERT INTO {ks}.messages_by_conversation (conversation_id, bucket, message_id, sender, "
                        + "content, recipients, attachments) VALUES (?, ?, ?, ?, ?, ?, ?)"),
                prepare("UPDATE {ks}.conversations USING TIMESTAMP ? SET last_message_id = ? WHERE id = ?"),
                prepare("INSERT INTO {ks}.messages_by_previous (conversation_id, previous_message_id, message_id, "
                        + "sender) VALUES (?, ?, ?, ?) USING TIMESTAMP ?"),
                prepare("INSERT INTO {ks}.inbox_by_day (username, day, conversation_id, last_at) VALUES (?, ?, ?, ?) "
                        + "USING TIMESTAMP ?"),
                prepare("UPDATE {ks}.inbox_by_user USING TIMESTAMP ? SET last_message_id = ?, last_sender = ?, "
                        + "last_preview = ?, others_sent = ?, read_up_to = ?, others_read = ? WHERE username = ? "
                        + "AND kind = 0 AND conversation_id = ? AND message_id = ?"),
                prepare("UPDATE {ks}.inbox_by_user USING TIMESTAMP ? SET last_message_id = ?, last_sender = ?, "
                        + "last_preview = ?, others_sent = ? WHERE username = ? AND kind = 0 AND conversation_id = ? "
                        + "AND message_id = ?"));

        System.out.printf(
                "cql-patterns open-model bench: %s, Cassandra %s, rates %s/s, %d s per phase (+%d s warm-up), "
                        + "rows %s, run %s, %d cores, load average %s%nHTTP client: %s%n",
                options.baseUrl(),
                options.contactPoint(),
                options.rates(),
                options.seconds(),
                options.warmupSeconds(),
                options.rows(),
                run,
                Runtime.getRuntime().availableProcessors(),
                loadAverage(),
                http.describe());
        seedConversations();

        List<Route> routes = new ArrayList<>();
        // A reference, not a function: the HTTP round trip alone (this client, the kernel, Vert.x, no Cassandra), so
        // the tail a service adds over the driver floor can be split into the HTTP hop's and the handler's.
        routes.add(new Route(
                HTTP_ALONE,
                "GET /q/health/live (HTTP alone)",
                true,
                false,
                i -> get("/q/health/live", null),
                i -> CompletableFuture.completedFuture(null)));
        routes.add(new Route(
                "paste",
                "GET /pastes/{id}",
                true,
                false,
                i -> get("/pastes/" + pastes.get(i % Math.min(pastes.size(), 1000)), null),
                i -> floor(readPaste.bind(pastes.get(i % Math.min(pastes.size(), 1000))))));
        routes.add(new Route(
                "history",
                "GET /conversations/{id}/messages",
                true,
                true,
                i -> get("/conversations/" + history + "/messages?limit=" + PAGE, aliceToken),
                i -> floor(conversation.bind(history))
                        .thenCompose(c -> floor(
                                buckets.bind("messages", history.toString(), Integer.MAX_VALUE, 0, WALKED_BUCKETS)))
                        .thenCompose(b -> floor(fromTop.bind(
                                history,
                                b.one().getInt(0),
                                Uuids.endOf(253402300799999L),
                                Uuids.startOf(0),
                                PAGE + 1)))));
        routes.add(new Route(
                "latest",
                "GET /pastes",
                true,
                true,
                i -> get("/pastes?limit=" + PAGE, null),
                i -> floor(buckets.bind("pastes", "", dayKey(Instant.now()), 0, WALKED_BUCKETS))
                        .thenCompose(b -> {
                            int day = b.one().getInt(0);
                            return floor(generation.bind("latest_public_pastes_by_period", String.valueOf(day)))
                                    .thenApply(g -> day);
                        })
                        .thenCompose(day -> {
                            Instant now = Instant.now();
                            return CompletableFuture.allOf(Arrays.stream(LISTING_PERIODS)
                                    .mapToObj(period -> floor(
                                                    newest.bind(day, period, now.minusSeconds(period - 2), PAGE + 1))
                                            .toCompletableFuture())
                                    .toArray(CompletableFuture<?>[]::new));
                        })));
        routes.add(new Route(
                "joiners",
                "GET /groups/{group}/members/latest",
                true,
                true,
                i -> get("/groups/" + group + "/members/latest?limit=" + PAGE, aliceToken),
                i -> floor(groupBuckets.bind(group))
                        .thenCombine(floor(generation.bind("group_members", group)), (g, generationRow) -> g)
                        .thenCompose(
                                g -> floor(buckets.bind("group-joins", group, Integer.MAX_VALUE, 0, WALKED_BUCKETS)))
                        .thenCompose(b -> floor(joinDay.bind(group, b.one().getInt(0), PAGE + 1)))));
        routes.add(new Route(
                "songs",
                "GET /songs?tag=",
                true,
                true,
                i -> get("/songs?tag=" + tag + "&limit=" + PAGE, null),
                i -> floor(generation.bind("songs_by_tag", tag))
                        .thenCompose(g -> floor(songsByTag.bind(tag, PAGE + 1)))));
        routes.add(new Route("clicks", "GET /clicks", true, true, i -> get("/clicks?limit=" + PAGE, null), i -> {
            // No from/to: this month back to the span's first, as the service defaults them.
            YearMonth to = YearMonth.now(ZoneOffset.UTC);
            return floor(buckets.bind(
                            "clickstream",
                            "",
                            monthKey(to),
                            monthKey(to.minusMonths(CLICK_SPAN_MONTHS - 1)),
                            WALKED_BUCKETS))
                    .thenCompose(b -> {
                        int month = b.one().getInt(0);
                        CompletableFuture<?>[] shards = new CompletableFuture<?>[CLICK_SHARDS];
                        for (int shard = 0; shard < CLICK_SHARDS; shard++) {
                            shards[shard] = floor(inShard.bind(month / 100, month % 100, shard, PAGE + 1))
                                    .toCompletableFuture();
                        }
                        return CompletableFuture.allOf(shards);
                    });
        }));
        routes.add(new Route(
                "inbox",
                "GET /inbox",
                true,
                false,
                i -> get("/inbox", aliceToken),
                // From tomorrow's day, as InboxByDay (a replica's clock may run ahead); budget + 1 days listed.
                i -> floor(buckets.bind(
                                "inbox", alice, dayKey(Instant.now().plus(Duration.ofDays(1))), 0, WALKED_BUCKETS))
                        .thenCompose(days -> inboxDays(
                                dayRows,
                                someSummaries,
                                rowsOf(days).stream().map(r -> r.getInt(0)).toList(),
                                0,
                                new ArrayList<>()))
                        .thenCompose(page -> {
                            // UnreadCounts.of: no read where nothing is unread, or only the last message, someone
                            // else's; else the message after read_up_to (the caller's own passed on: not here).
                            List<CompletableFuture<?>> firsts = new ArrayList<>();
                            for (Row s : page.subList(0, Math.min(PAGE, page.size()))) {
                                long unread = Math.max(0, s.getLong("others_sent") - s.getLong("others_read"));
                                if (unread > 1 || unread == 1 && alice.equals(s.getString("last_sender"))) {
                                    UUID readUpTo = s.getUuid("read_up_to");
                                    firsts.add(floor(after.bind(
                                                    s.getUuid("conversation_id"),
                                                    readUpTo == null ? NEVER_READ : readUpTo))
                                            .toCompletableFuture());
                                }
                            }
                            return CompletableFuture.allOf(firsts.toArray(CompletableFuture<?>[]::new));
                        })));
        routes.add(new Route(
                "create-paste",
                "POST /pastes",
                false,
                false,
                i -> post(
                        "/pastes",
                        null,
                        "{\"title\":\"open " + run + " " + i + "\",\"body\":\"server { listen 80; } # " + i
                                + "\",\"private\":false,\"expiresIn\":\"PT10M\"}"),
                i -> {
                    UUID id = Uuids.random();
                    Instant now = Instant.ofEpochMilli(System.currentTimeMillis()); // milliseconds, as PasteRow.millis
                    Instant expiresAt = now.plusSeconds(600);
                    int day = dayKey(now);
                    long version = now.toEpochMilli() * 1000;
                    String title = "open " + run + " " + i;
                    // The list row (listed for 10 min, the paste's lifetime), once the paste has answered.
                    return floor(createPaste.bind(
                                    600,
                                    title,
                                    "server { listen 80; } # " + i,
                                    false,
                                    java.nio.ByteBuffer.wrap(new byte[32]),
                                    now,
                                    now,
                                    expiresAt,
                                    version,
                                    id))
                            .thenCompose(
                                    rs -> floor(generation.bind("latest_public_pastes_by_period", String.valueOf(day))))
                            .thenCompose(g -> floor(show.bind(day, 600, now, id, title, expiresAt, 600, version)))
                            .thenCompose(
                                    w -> floor(generation.bind("latest_public_pastes_by_period", String.valueOf(day))));
                }));
        routes.add(new Route(
                "send",
                "POST /conversations/{id}/messages",
                false,
                false,
                i -> post(
                        "/conversations/" + sendTo.get(i % sendTo.size()) + "/messages",
                        bobToken,
                        "{\"content\":\"Open bench " + i + ": are we still on for lunch?\"}"),
                i -> send.send(
                        sendTo.get(i % sendTo.size()), bob, "Open bench " + i + ": are we still on for lunch?")));
        routes.removeIf(r -> !options.routes().contains(r.key()));
        if (options.saturate() > 0) {
            seedRows(options.rows().get(0));
            saturation(routes);
            return;
        }

        int stage = 0;
        for (int rows : options.rows()) {
            seedRows(rows);
            // Every rate at the smallest size; one rate (the lowest) at the larger sizes, for the routes whose
            // table grows with the rows (the others are printed at the first size only).
            List<Integer> rates =
                    stage == 0 ? options.rates() : List.of(options.rates().get(0));
            System.out.printf(
                    "%n== %,d rows (history: messages in the conversation; GET /pastes: public pastes today, plus those of earlier runs today; "
                            + "latest joiners: joins of the group; GET /songs: songs of the tag; GET /clicks: clicks this month, plus those of "
                            + "earlier runs this month; GET /pastes/{id}: always 1,000 pastes) ==%n",
                    rows);
            header();
            // Reads first, so the writes' rows do not change what the reads of this stage find.
            for (boolean reads : new boolean[] {true, false}) {
                for (Route r : routes) {
                    if (r.read() != reads || (stage > 0 && !r.sized())) {
                        continue;
                    }
                    for (int rate : rates) {
                        measure(r, rate, rows);
                    }
                }
            }
            stage++;
        }
        summary();
    }

    // ---- Measuring ---------------------------------------------------------------------------------

    private void measure(Route route, int rate, int rows) throws InterruptedException {
        // Warm both paths at this rate, then measure both, seconds apart; which goes first alternates from
        // one measurement to the next, so a drift in the machine's load does not always favour the same one.
        // The most partitions one answer read (its X-Partitions-Read): a read that should touch one
        // partition and touches more shows here, whatever its latency.
        LongAccumulator partitions = new LongAccumulator(Math::max, -1);
        IntFunction<CompletionStage<?>> service =
                i -> http.send(route.http().apply(i)).thenApply(r -> {
                    partitions.accumulate(r.header("X-Partitions-Read"));
                    return r;
                });
        phase(route.name(), "floor", rate, rows, options.warmupSeconds(), route.floor());
        phase(route.name(), "service", rate, rows, options.warmupSeconds(), service);
        String counted = checkStatements(route);
        boolean floorFirst = measurements++ % 2 == 0;
        Result floor = floorFirst ? phase(route.name(), "floor", rate, rows, options.seconds(), route.floor()) : null;
        long ticks = serviceTicks();
        Result served = phase(route.name(), "service", rate, rows, options.seconds(), service);
        // The service's CPU per answered request: where its time goes, and unlike req/s it hardly moves when
        // others load the machine. A tick of /proc is 10 ms (USER_HZ 100).
        double cpu = ticks < 0 ? Double.NaN : (serviceTicks() - ticks) * 10.0 / Math.max(1, served.ok());
        if (!floorFirst) {
            floor = phase(route.name(), "floor", rate, rows, options.seconds(), route.floor());
        }
        report(route, rate, floor, served, cpu, partitions.get(), counted);
    }

    /**
     * Once per route and run, after its warm-up: one request to the service alone and one floor call alone,
     * the service's X-Statements set against the statements the floor sent. They must agree, or the floor
     * does other work than the route (its statements are out of date): the run stops. "-" where the service
     * sends none (HTTP alone).
     */
    private String checkStatements(Route route) {
        String known = statements.get(route.key());
        if (known != null) {
            return known;
        }
        try {
            AsyncHttp.Response answer = http.send(route.http().apply(0)).get(15, TimeUnit.SECONDS);
            long service = answer.header("X-Statements");
            long before = floorStatements.sum();
            route.floor().apply(0).toCompletableFuture().get(15, TimeUnit.SECONDS);
            long floor = floorStatements.sum() - before;
            if (answer.status() / 100 != 2) {
                fail(route.name() + " answered " + answer.status() + " to the statement count's request");
            }
            if (service >= 0 && service != floor) {
                fail(route.name() + ": the service sent " + service + " statements (X-Statements), its floor " + floor
                        + ": the floor's statements are out of date (OpenBench.run)");
            }
            String counted = service < 0 ? "-" : service + "=" + floor;
            statements.put(route.key(), counted);
            return counted;
        } catch (ExecutionException | TimeoutException e) {
            fail(route.name() + ": the statement count's request failed: " + e);
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /**
     * The saturation goals of issue 28, closed model: per read route, {@code --saturate} calls in flight for
     * {@code --duration} seconds against the floor, HTTP alone and the service, in turn, {@code --rounds}
     * times (medians). The ceiling is the floor with the HTTP round trip added, 1 / (1/floor + 1/HTTP), both
     * from the same rounds. With {@code --load-minutes}, the first route is then kept saturated that long
     * before the RSS is printed. With {@code --half}, each route is then measured in the open model at half
     * of the service's saturated rate (median), service and floor in turn, {@code --rounds} times
     * ({@link #halfRate}): the goal is a service p99 within 2x the floor's.
     */
    private void saturation(List<Route> routes) throws InterruptedException {
        Route alone = routes.stream()
                .filter(r -> r.key().equals(HTTP_ALONE))
                .findFirst()
                .orElse(null);
        if (alone == null) {
            fail("--saturate needs the route http (the HTTP round trip) among --routes");
            return;
        }
        int inFlight = options.saturate();
        System.out.printf(
                "%nsaturation, %d in flight, %d rounds of %d s (floor, HTTP alone, service in turn), medians; "
                        + "load average %s%n",
                inFlight, options.rounds(), options.seconds(), loadAverage());
        System.out.printf(
                "%-34s %9s %9s %9s %9s %6s %7s %7s %7s %7s %9s %7s%n",
                "route",
                "svc req/s",
                "flr req/s",
                "http req/s",
                "ceiling",
                "ratio",
                "svc p50",
                "svc p99",
                "flr p50",
                "flr p99",
                "cpu ms",
                "stmts");
        Route first = null;
        for (Route r : routes) {
            if (r == alone || !r.read()) {
                continue;
            }
            first = first == null ? r : first;
            System.out.flush();
            closed(r.name(), "floor", inFlight, options.warmupSeconds(), r.floor());
            wrk(r, inFlight, options.warmupSeconds());
            String counted = checkStatements(r);
            List<Result> floors = new ArrayList<>();
            List<Result> alones = new ArrayList<>();
            List<Result> served = new ArrayList<>();
            long ticks = 0;
            for (int round = 0; round < options.rounds(); round++) {
                floors.add(closed(r.name(), "floor", inFlight, options.seconds(), r.floor()));
                alones.add(wrk(alone, inFlight, options.seconds()));
                long before = serviceTicks();
                served.add(wrk(r, inFlight, options.seconds()));
                long after = serviceTicks();
                ticks = ticks < 0 || before < 0 || after < 0 ? -1 : ticks + after - before;
            }
            // The service's CPU per answer of its own rounds (a /proc tick is 10 ms).
            double cpu = ticks < 0
                    ? Double.NaN
                    : ticks
                            * 10.0
                            / Math.max(1, served.stream().mapToInt(Result::ok).sum());
            double floor = median(floors, Result::achieved);
            double httpAlone = median(alones, Result::achieved);
            double svc = median(served, Result::achieved);
            double ceiling = 1 / (1 / floor + 1 / httpAlone);
            System.out.printf(
                    "%-34s %9.0f %9.0f %9.0f %9.0f %6.2f %7.2f %7.2f %7.2f %7.2f %9.2f %7s%n",
                    r.name(),
                    svc,
                    floor,
                    httpAlone,
                    ceiling,
                    svc / ceiling,
                    median(served, Result::p50),
                    median(served, Result::p99),
                    median(floors, Result::p50),
                    median(floors, Result::p99),
                    cpu,
                    counted);
            System.out.flush();
            if (options.half()) {
                halfRate(r, svc);
            }
        }
        if (first != null && options.loadMinutes() > 0) {
            Route loaded = first;
            System.out.printf("%nkeeping %s saturated for %d min ...%n", loaded.name(), options.loadMinutes());
            Result r = wrk(loaded, inFlight, options.loadMinutes() * 60);
            System.out.printf(
                    "%s: %.0f req/s, p50 %.2f p99 %.2f ms %s%n",
                    loaded.name(), r.achieved(), r.p50(), r.p99(), r.errors().equals("-") ? "" : r.errors());
        }
        System.out.printf("service memory after the run: %s, %s; load average %s%n", rss(), heap(), loadAverage());
    }

    /**
     * The p99 at half of saturation: the service and the floor in the open model at half the service's
     * saturated rate, in turn (which goes first alternates), {@code --rounds} times after one warm-up each.
     * Prints every round and the medians, with the ratio service p99 / floor p99 (goal: 2 at most).
     */
    private void halfRate(Route r, double saturated) throws InterruptedException {
        int rate = Math.max(1, (int) Math.round(saturated / 2));
        IntFunction<CompletionStage<?>> service = i -> http.send(r.http().apply(i));
        phase(r.name(), "floor", rate, 0, options.warmupSeconds(), r.floor());
        phase(r.name(), "service", rate, 0, options.warmupSeconds(), service);
        List<Result> floors = new ArrayList<>();
        List<Result> served = new ArrayList<>();
        for (int round = 0; round < options.rounds(); round++) {
            boolean floorFirst = round % 2 == 0;
            Result f = floorFirst ? phase(r.name(), "floor", rate, 0, options.seconds(), r.floor()) : null;
            Result s = phase(r.name(), "service", rate, 0, options.seconds(), service);
            if (!floorFirst) {
                f = phase(r.name(), "floor", rate, 0, options.seconds(), r.floor());
            }
            floors.add(f);
            served.add(s);
            System.out.printf(
                    "  at half (%d/s), round %d: service %.0f/s p50 %.2f p99 %.2f ms | floor %.0f/s p50 %.2f p99 %.2f ms"
                            + " | p99 x%.2f %s%n",
                    rate,
                    round + 1,
                    s.achieved(),
                    s.p50(),
                    s.p99(),
                    f.achieved(),
                    f.p50(),
                    f.p99(),
                    s.p99() / f.p99(),
                    errors(s, f));
            System.out.flush();
        }
        double p99 = median(served, Result::p99) / median(floors, Result::p99);
        System.out.printf(
                "  at half (%d/s), medians: service %.0f/s p50 %.2f p99 %.2f ms | floor %.0f/s p50 %.2f p99 %.2f ms"
                        + " | p99 x%.2f (goal <= 2: %s)%n",
                rate,
                median(served, Result::achieved),
                median(served, Result::p50),
                median(served, Result::p99),
                median(floors, Result::achieved),
                median(floors, Result::p50),
                median(floors, Result::p99),
                p99,
                p99 <= 2 ? "met" : "NOT");
        System.out.flush();
    }

    /**
     * Closed model over HTTP with wrk (one thread, {@code connections} connections, each with one request
     * in flight), cycling through the route's first 1,000 requests (reads only: no body): the cheapest HTTP client at hand, so
     * that the load generator takes as little as possible of the two cores the service shares with it.
     */
    private Result wrk(Route route, int connections, int seconds) {
        try {
            StringBuilder lua = new StringBuilder("local requests = {\n");
            for (int i = 0; i < 1000; i++) {
                AsyncHttp.Request request = route.http().apply(i);
                // Formatted before wrk knows its target, so without the Host header it would add itself.
                StringBuilder headers = new StringBuilder("[\"Host\"] = ")
                        .append(quoted(URI.create(options.baseUrl()).getAuthority()))
                        .append(", ");
                request.headers()
                        .forEach((name, value) -> headers.append('[')
                                .append(quoted(name))
                                .append("] = ")
                                .append(quoted(value))
                                .append(", "));
                lua.append("  wrk.format(")
                        .append(quoted(request.method()))
                        .append(", ")
                        .append(quoted(request.path()))
                        .append(", {")
                        .append(headers)
                        .append("}")
                        .append(request.body() == null ? "" : ", " + quoted(request.body()))
                        .append("),\n");
            }
            lua.append("}\nlocal i = 0\nrequest = function()\n  i = i % #requests + 1\n  return requests[i]\nend\n")
                    .append("done = function(summary, latency, requests)\n")
                    .append(
                            "  io.write(string.format(\"errors %d %d %d %d %d\\n\", summary.errors.connect, summary.errors.read, ")
                    .append("summary.errors.write, summary.errors.status, summary.errors.timeout))\n")
                    .append(
                            "  io.write(string.format(\"latency_us %d %d %d\\n\", latency:percentile(50), latency:percentile(99), latency.max))\n")
                    .append(
                            "  io.write(string.format(\"answered %d %d\\n\", summary.requests, summary.duration))\nend\n");
            Path script = Files.createTempFile("bench-open-", ".lua");
            Files.writeString(script, lua);
            URI base = URI.create(options.baseUrl());
            Process p = new ProcessBuilder(
                            "wrk",
                            "-t1",
                            "-c" + connections,
                            "-d" + seconds + "s",
                            "--timeout",
                            "10s",
                            "-s",
                            script.toString(),
                            base.getScheme() + "://" + base.getAuthority())
                    .redirectErrorStream(true)
                    .start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            Files.deleteIfExists(script);
            long[] errors = numbers(out, "errors", 5);
            long[] latency = numbers(out, "latency_us", 3);
            long[] answered = numbers(out, "answered", 2);
            // wrk counts every response in its requests, and those with a status of 400 or more among its errors.
            long ok = answered[0] - errors[3];
            boolean clean = Arrays.stream(errors).sum() == 0;
            return new Result(
                    route.name(),
                    "service",
                    connections,
                    0,
                    (int) answered[0],
                    (int) ok,
                    ok / (answered[1] / 1e6),
                    latency[0] / 1e3,
                    Double.NaN,
                    latency[1] / 1e3,
                    latency[2] / 1e3,
                    clean ? "-" : "wrk errors (connect read write status timeout) " + Arrays.toString(errors));
        } catch (IOException e) {
            fail("wrk: " + e.getMessage() + " (bin/bench-open installs it with --saturate)");
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static String quoted(String s) {
        return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
    }

    private static long[] numbers(String out, String label, int count) {
        String line = out.lines()
                .filter(l -> l.startsWith(label + " "))
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("wrk printed no " + label + ":\n" + out));
        return Arrays.stream(line.substring(label.length() + 1).trim().split(" "))
                .limit(count)
                .mapToLong(Long::parseLong)
                .toArray();
    }

    private static double median(List<Result> results, java.util.function.ToDoubleFunction<Result> of) {
        double[] v = results.stream().mapToDouble(of).sorted().toArray();
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    /** Closed model: {@code inFlight} calls outstanding for {@code seconds}, each latency from its send. */
    private Result closed(String route, String target, int inFlight, int seconds, IntFunction<CompletionStage<?>> call)
            throws InterruptedException {
        int capacity = 1 << 20;
        long[] nanos = new long[capacity];
        boolean[] ok = new boolean[capacity];
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        Semaphore slots = new Semaphore(inFlight);
        LongAdder answered = new LongAdder();
        long start = System.nanoTime();
        long end = start + seconds * 1_000_000_000L;
        int i = 0;
        while (System.nanoTime() < end) {
            slots.acquire();
            int slot = i++ % capacity;
            long sent = System.nanoTime();
            start(call, slot).whenComplete((value, failure) -> {
                nanos[slot] = System.nanoTime() - sent;
                if (succeeded(value, failure, errors)) {
                    ok[slot] = true;
                    answered.increment();
                }
                slots.release();
            });
        }
        if (!slots.tryAcquire(inFlight, 30, TimeUnit.SECONDS)) {
            errors.computeIfAbsent("unanswered", e -> new LongAdder()).increment();
        }
        long span = System.nanoTime() - start;
        // Latencies of the last 2^20 calls at most; the rate counts every answer.
        int n = Math.min(i, capacity);
        Result r = Result.of(route, target, inFlight, 0, Arrays.copyOf(nanos, n), Arrays.copyOf(ok, n), span, errors);
        return new Result(
                r.route(),
                r.target(),
                r.rate(),
                r.rows(),
                i,
                (int) answered.sum(),
                answered.sum() / (span / 1e9),
                r.p50(),
                r.p90(),
                r.p99(),
                r.max(),
                r.errors());
    }

    /** utime + stime of the service (fields 14 and 15 of /proc/PID/stat), in ticks; -1 when unknown. */
    private long serviceTicks() {
        try {
            String stat = Files.readString(Path.of("/proc", String.valueOf(options.pid()), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    private void report(
            Route route, int rate, Result floor, Result service, double cpu, long partitions, String counted) {
        results.add(floor);
        results.add(service);
        double tput = service.achieved() / floor.achieved();
        double tail = service.p99() / floor.p99();
        boolean goal = route.read() ? tput >= 0.9 && tail <= 1.5 : tput >= 0.8;
        String verdict = route.key().equals(HTTP_ALONE) ? "ref" : goal ? "met" : "NOT";
        System.out.printf(
                "%-34s %6d %9.0f %7.2f %7.2f %8.1f %7.2f %5s %7s %9.0f %7.2f %7.2f %8.1f %6.2f %6.2f  %-4s %s%n",
                route.name(),
                rate,
                service.achieved(),
                service.p50(),
                service.p99(),
                service.max(),
                cpu,
                partitions < 0 ? "-" : String.valueOf(partitions),
                counted,
                floor.achieved(),
                floor.p50(),
                floor.p99(),
                floor.max(),
                tput,
                tail,
                verdict,
                errors(service, floor));
        System.out.flush();
    }

    private static void header() {
        System.out.printf(
                "%-34s %6s %9s %7s %7s %8s %7s %5s %7s %9s %7s %7s %8s %6s %6s  %-4s %s%n",
                "route",
                "rate",
                "svc req/s",
                "p50 ms",
                "p99 ms",
                "max ms",
                "cpu ms",
                "parts",
                "stmts",
                "flr req/s",
                "p50 ms",
                "p99 ms",
                "max ms",
                "tput",
                "p99",
                "goal",
                "errors (svc | floor)");
    }

    private static String errors(Result service, Result floor) {
        return service.errors().equals("-") && floor.errors().equals("-")
                ? ""
                : service.errors() + " | " + floor.errors();
    }

    /**
     * Sends rate * seconds calls, call i due at start + i / rate, from one scheduling thread that never
     * waits for an answer. A call sent late (the scheduler itself fell behind) still counts from its due time.
     */
    private Result phase(
            String route, String target, int rate, int rows, int seconds, IntFunction<CompletionStage<?>> call)
            throws InterruptedException {
        int n = rate * seconds;
        long[] nanos = new long[n];
        boolean[] ok = new boolean[n];
        Map<String, LongAdder> errors = new ConcurrentHashMap<>();
        CountDownLatch done = new CountDownLatch(n);
        AtomicLong last = new AtomicLong();
        double period = 1e9 / rate;
        long start = System.nanoTime() + 1_000_000;
        for (int i = 0; i < n; i++) {
            long due = start + (long) (i * period);
            long wait;
            while ((wait = due - System.nanoTime()) > 0) {
                LockSupport.parkNanos(wait);
            }
            int slot = i;
            start(call, i).whenComplete((value, failure) -> {
                long now = System.nanoTime();
                nanos[slot] = now - due;
                last.accumulateAndGet(now, Math::max);
                ok[slot] = succeeded(value, failure, errors);
                done.countDown();
            });
        }
        if (!done.await(seconds + 30L, TimeUnit.SECONDS)) {
            errors.computeIfAbsent("unanswered", e -> new LongAdder()).add(done.getCount());
        }
        return Result.of(route, target, rate, rows, nanos, ok, Math.max(1, last.get() - start), errors);
    }

    /** Call i; a call that throws instead of answering counts as a failed answer. */
    private static CompletionStage<?> start(IntFunction<CompletionStage<?>> call, int i) {
        try {
            return call.apply(i);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /** True for an answer without failure and, over HTTP, with a 2xx status; otherwise counts the error by name. */
    private static boolean succeeded(Object value, Throwable failure, Map<String, LongAdder> errors) {
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        String error = cause != null
                ? cause.getClass().getSimpleName()
                : value instanceof AsyncHttp.Response r && r.status() / 100 != 2 ? String.valueOf(r.status()) : null;
        if (error != null) {
            errors.computeIfAbsent(error, e -> new LongAdder()).increment();
        }
        return error == null;
    }

    private static AsyncHttp.Request get(String path, String token) {
        return AsyncHttp.Request.get(path, token);
    }

    private static AsyncHttp.Request post(String path, String token, String json) {
        return AsyncHttp.Request.post(path, token, json);
    }

    // ---- Seeding ---------------------------------------------------------------------------------------

    private static final Pattern ID = Pattern.compile("\"id\"\\s*:\\s*\"([0-9a-f-]{36})\"");

    /**
     * Alice's inbox and the conversations sends go to, written through the service's own routes (sign-ups,
     * POST /conversations, POST /conversations/{id}/messages), so that what the floors read is what the service
     * wrote. Alice's inbox, all of today: the history conversation (1:1 with Bob; seedRows adds its messages), a
     * group where Bob and Carol sent her 5 messages she has not read, and {@link #QUIET_CONVERSATIONS} groups
     * without messages: 10 conversations. Sends: {@link #SEND_CONVERSATIONS} groups of Bob, Carol, Dave and
     * Erin, Bob sending (three recipients, as the cost line of cql/010 counts); Alice is in none of them.
     */
    private void seedConversations() {
        long t0 = System.nanoTime();
        Map<String, String> tokens = new HashMap<>();
        tokens.put(alice, aliceToken);
        tokens.put(bob, bobToken);
        for (String user : List.of(carol, dave, erin)) {
            tokens.put(user, token(user));
        }
        tokens.forEach((user, token) -> call(
                post("/users", token, "{\"username\":\"" + user + "\",\"email\":\"" + user + "@bench.example\"}")));
        history = id(call(post("/conversations", aliceToken, "{\"members\":[\"" + bob + "\"]}")));
        UUID unread = id(call(post("/conversations", aliceToken, group("Unread", bob, carol))));
        for (int k = 0; k < 5; k++) {
            call(post(
                    "/conversations/" + unread + "/messages",
                    tokens.get(k % 2 == 0 ? bob : carol),
                    "{\"content\":\"Unread message " + k + "\"}"));
        }
        List<CompletableFuture<AsyncHttp.Response>> created = new ArrayList<>();
        for (int k = 0; k < QUIET_CONVERSATIONS; k++) {
            created.add(http.send(post("/conversations", aliceToken, group("Quiet " + k, bob, carol)), true));
        }
        for (int k = 0; k < SEND_CONVERSATIONS; k++) {
            created.add(http.send(post("/conversations", bobToken, group("Sends " + k, carol, dave, erin)), true));
        }
        for (int k = 0; k < created.size(); k++) {
            AsyncHttp.Response r =
                    created.get(k).orTimeout(30, TimeUnit.SECONDS).join();
            if (r.status() / 100 != 2) {
                fail("POST /conversations answered " + r.status() + ": " + r.body());
            }
            if (k >= QUIET_CONVERSATIONS) {
                sendTo.add(id(r));
            }
        }
        // Alice's first read indexes her days (InboxByDay.everySummary, InboxRows.indexDays): made here, so that
        // every read measured is a later read, the one the floor copies.
        call(get("/inbox", aliceToken));
        System.err.printf(
                "bench-open: seeded 5 users, %d conversations and 5 messages through the service in %.1f s%n",
                2 + QUIET_CONVERSATIONS + SEND_CONVERSATIONS, (System.nanoTime() - t0) / 1e9);
    }

    private static String group(String title, String... members) {
        return "{\"members\":[\"" + String.join("\",\"", members) + "\"],\"title\":\"" + title + "\"}";
    }

    /** One request of the seeding, its body kept; a status other than 2xx stops the run. */
    private AsyncHttp.Response call(AsyncHttp.Request request) {
        try {
            AsyncHttp.Response r = http.send(request, true).get(15, TimeUnit.SECONDS);
            if (r.status() / 100 != 2) {
                fail(request.method() + " " + request.path() + " answered " + r.status() + ": " + r.body());
            }
            return r;
        } catch (ExecutionException | TimeoutException e) {
            fail(request.method() + " " + request.path() + " failed: " + e);
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static UUID id(AsyncHttp.Response r) {
        Matcher m = ID.matcher(r.body());
        if (!m.find()) {
            fail("no id in " + r.body());
        }
        return UUID.fromString(m.group(1));
    }

    /**
     * Tops the history conversation, today's public pastes, the group's joiners, the tag's songs, this month's
     * clicks and the pastes up to {@code rows} rows each, with the registry rows their readers walk.
     */
    private void seedRows(int rows) throws InterruptedException, UnknownHostException {
        long t0 = System.nanoTime();
        PreparedStatement message =
                prepare("INSERT INTO {ks}.messages_by_conversation (conversation_id, bucket, message_id, "
                        + "sender, content, recipients) VALUES (?, ?, ?, ?, ?, ?)");
        PreparedStatement paste =
                prepare("INSERT INTO {ks}.pastes_by_id (id, title, body, is_private, secret_hash, created_at, "
                        + "modified_at, version) VALUES (?, ?, ?, false, ?, ?, ?, 1)");
        PreparedStatement listed =
                prepare("INSERT INTO {ks}.latest_public_pastes_by_period (day, listed_for, created_at, id, title) "
                        + "VALUES (?, " + LISTING_PERIODS[LISTING_PERIODS.length - 1] + ", ?, ?, ?)");
        // JoinGroup.INSERT_JOINER (the read needs no group_members or groups_by_user row), Groups.CREATE without its
        // IF NOT EXISTS
        PreparedStatement joiner = prepare(
                "INSERT INTO {ks}.group_join_dates (groupname, join_day, joined, username) VALUES (?, ?, ?, ?)");
        PreparedStatement groupRow =
                prepare("INSERT INTO {ks}.groups (groupname, buckets, created_at) VALUES (?, ?, ?)");
        // SongStore.TAG without its USING TIMESTAMP (the read needs no songs row)
        PreparedStatement tagged =
                prepare("INSERT INTO {ks}.songs_by_tag (tag, artist, album, song) VALUES (?, ?, ?, ?)");
        // RecordClick.WRITE_CLICK without its TTL (none by default), shard round-robin as RecordClick picks it
        PreparedStatement click = prepare(
                "INSERT INTO {ks}.clickstream (year, month, shard, click_id, ip, url) VALUES (?, ?, ?, ?, ?, ?)");
        InetAddress ip = InetAddress.getByAddress(new byte[] {98, (byte) 203, (byte) 153, 64});
        PreparedStatement bucket = prepare("INSERT INTO {ks}.time_buckets (series, entity, bucket) VALUES (?, ?, ?)");
        Set<Integer> months = new TreeSet<>();
        Set<Integer> days = new TreeSet<>();
        // Few batches in flight: 64 of them (12,800 rows) at a time ran a 512 MB node out of heap at 10^6 rows.
        Semaphore inFlight = new Semaphore(16);
        LongAdder failed = new LongAdder();
        java.util.function.BiConsumer<Object, Throwable> done = (r, e) -> {
            if (e != null) {
                failed.increment();
            }
            inFlight.release();
        };
        int from = seededRows;
        long end = System.currentTimeMillis();
        // Unlogged batches of 100 rows of one partition each (messages of the conversation, today's list, the
        // group's joiners of the day, the tag's songs; clicks: 25 for each of the month's shards): one mutation
        // per batch, so 10^6 rows take seconds, not minutes. Only the first 1,000 pastes by id are read, and a
        // read by key does not depend on the table's size, so no more are written.
        for (int i = from; i < rows; i += 100) {
            BatchStatement messages = BatchStatement.newInstance(DefaultBatchType.UNLOGGED);
            BatchStatement list = BatchStatement.newInstance(DefaultBatchType.UNLOGGED);
            BatchStatement joiners = BatchStatement.newInstance(DefaultBatchType.UNLOGGED);
            BatchStatement songs = BatchStatement.newInstance(DefaultBatchType.UNLOGGED);
            BatchStatement[] clicks = new BatchStatement[CLICK_SHARDS];
            Arrays.setAll(clicks, s -> BatchStatement.newInstance(DefaultBatchType.UNLOGGED));
            for (int k = i; k < Math.min(rows, i + 100); k++) {
                // A millisecond apart, ending now; a random timeuuid node part keeps ids distinct across stages.
                Instant at = Instant.ofEpochMilli(end - (rows - k));
                UUID id = Uuids.random();
                months.add(monthKey(at));
                days.add(dayKey(at));
                messages = messages.add(
                        message.bind(history, monthKey(at), timeuuid(at), bob, "Seeded message " + k, Set.of(alice)));
                list = list.add(listed.bind(dayKey(at), at, id, "seeded " + k));
                joiners = joiners.add(joiner.bind(group, dayKey(at), timeuuid(at), "bo" + run + "j" + k));
                songs = songs.add(tagged.bind(tag, "Seeded artist " + k % 1000, "Album " + k / 1000, "Song " + k));
                YearMonth month = YearMonth.from(at.atZone(ZoneOffset.UTC));
                clicks[k % CLICK_SHARDS] = clicks[k % CLICK_SHARDS].add(click.bind(
                        month.getYear(),
                        month.getMonthValue(),
                        k % CLICK_SHARDS,
                        timeuuid(at),
                        ip,
                        "https://www.pluralsight.com/signup?seeded=" + k));
                if (pastes.size() < 1000) {
                    pastes.add(id);
                    inFlight.acquire();
                    session.executeAsync(paste.bind(
                                    id,
                                    "seeded " + k,
                                    "seeded body " + k,
                                    java.nio.ByteBuffer.wrap(new byte[32]),
                                    at,
                                    at))
                            .whenComplete(done);
                }
            }
            // Batches split by partition if the rows crossed a month or day boundary; single partition otherwise.
            List<BatchStatement> batches = new ArrayList<>(List.of(messages, list, joiners, songs));
            batches.addAll(Arrays.asList(clicks));
            for (BatchStatement b : batches) {
                if (b.size() > 0) {
                    inFlight.acquire();
                    session.executeAsync(b).whenComplete(done);
                }
            }
            if (failed.sum() > 0) {
                break;
            }
        }
        inFlight.acquire(16);
        inFlight.release(16);
        if (failed.sum() > 0) {
            fail(failed.sum()
                    + " seeding writes failed (the node's log says why; 10^6 rows need CASSANDRA_HEAP=1G or more)");
        }
        months.forEach(m -> session.execute(bucket.bind("messages", history.toString(), m)));
        days.forEach(d -> session.execute(bucket.bind("pastes", "", d)));
        days.forEach(d -> session.execute(bucket.bind("group-joins", group, d)));
        months.forEach(m -> session.execute(bucket.bind("clickstream", "", m)));
        session.execute(groupRow.bind(group, GROUP_BUCKETS, Instant.now()));
        System.err.printf(
                "bench-open: seeded %,d rows into 5 tables through the driver in %.1f s%n",
                Math.max(0, rows - from), (System.nanoTime() - t0) / 1e9);
        seededRows = Math.max(seededRows, rows);
    }

    private UUID timeuuid(Instant at) {
        // Time part of at, random clock sequence and node (variant bits kept).
        long lsb = (java.util.concurrent.ThreadLocalRandom.current().nextLong() & 0x3FFFFFFFFFFFFFFFL)
                | 0x8000000000000000L;
        return new UUID(Uuids.startOf(at.toEpochMilli()).getMostSignificantBits(), lsb);
    }

    // ---- Output ------------------------------------------------------------------------------------

    private void summary() throws IOException {
        String rss = rss();
        System.out.printf("%nservice memory after the run: %s, %s; load average %s%n", rss, heap(), loadAverage());
        System.out.println("HTTP client: " + http.describe());
        System.out.println(
                "goals (issue 15): reads >= 0.9x floor req/s and p99 <= 1.5x floor p99; writes >= 0.8x floor req/s.");
        System.out.println("p50 of the service against rows (flat-with-data-size goal: within 1.2x):");
        Map<String, Map<Integer, Double>> byRows = new LinkedHashMap<>();
        int lowest = options.rates().get(0);
        for (Result r : results) {
            if (r.target().equals("service") && r.rate() == lowest) {
                byRows.computeIfAbsent(r.route(), k -> new TreeMap<>()).put(r.rows(), r.p50());
            }
        }
        byRows.forEach((route, m) -> {
            if (m.size() > 1) {
                double first = m.values().iterator().next();
                StringBuilder s = new StringBuilder();
                m.forEach((rows, p50) -> s.append(String.format("  %,d rows: %.2f ms", rows, p50)));
                double lastP50 = ((TreeMap<Integer, Double>) m).lastEntry().getValue();
                System.out.printf("  %-34s%s  (x%.2f)%n", route, s, lastP50 / first);
            }
        });
        Files.createDirectories(options.out());
        StringBuilder tsv = new StringBuilder(
                "route\ttarget\trate\trows\tsent\tok\tachieved\tp50_ms\tp90_ms\tp99_ms\tmax_ms\terrors\n");
        for (Result r : results) {
            tsv.append(String.join(
                            "\t",
                            r.route(),
                            r.target(),
                            "" + r.rate(),
                            "" + r.rows(),
                            "" + r.sent(),
                            "" + r.ok(),
                            String.format("%.1f", r.achieved()),
                            f(r.p50()),
                            f(r.p90()),
                            f(r.p99()),
                            f(r.max()),
                            r.errors()))
                    .append('\n');
        }
        Files.writeString(options.out().resolve("results.tsv"), tsv);
        Files.writeString(
                options.out().resolve("report.html"),
                Plot.html(results, options.rates(), options.rows(), rss, loadAverage()));
        System.out.println("written: " + options.out().resolve("report.html") + " (plots), "
                + options.out().resolve("results.tsv"));
    }

    /** The service's heap in use, from its Prometheus metrics (jvm_memory_used_bytes, area heap). */
    private String heap() {
        try {
            AsyncHttp.Response metrics =
                    http.send(get("/q/metrics", null), true).get(10, TimeUnit.SECONDS);
            double bytes = metrics.body()
                    .lines()
                    .filter(l -> l.startsWith("jvm_memory_used_bytes{") && l.contains("area=\"heap\""))
                    .mapToDouble(l -> Double.parseDouble(l.substring(l.lastIndexOf(' ') + 1)))
                    .sum();
            return metrics.status() == 200 ? String.format("heap used %.0f MB", bytes / 1e6) : "heap unknown";
        } catch (ExecutionException | TimeoutException | RuntimeException e) {
            return "heap unknown (" + e.getMessage() + ")";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "heap unknown";
        }
    }

    private String rss() {
        if (options.pid() <= 0) {
            return "RSS unknown (no --pid)";
        }
        try {
            String status = Files.readString(Path.of("/proc/" + options.pid() + "/status"));
            String rss = status.lines()
                    .filter(l -> l.startsWith("VmRSS:"))
                    .findFirst()
                    .orElse("VmRSS: ?")
                    .substring(6)
                    .strip();
            String hwm = status.lines()
                    .filter(l -> l.startsWith("VmHWM:"))
                    .findFirst()
                    .orElse("VmHWM: ?")
                    .substring(6)
                    .strip();
            return "RSS " + rss + " (peak " + hwm + ", pid " + options.pid() + ")";
        } catch (IOException e) {
            return "RSS unknown (" + e.getMessage() + ")";
        }
    }

    private static String f(double d) {
        return String.format("%.3f", d);
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).substring(0, 14).strip();
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    private static int dayKey(Instant at) {
        LocalDate d = LocalDate.ofInstant(at, ZoneOffset.UTC);
        return d.getYear() * 10_000 + d.getMonthValue() * 100 + d.getDayOfMonth();
    }

    private static int monthKey(Instant at) {
        return monthKey(YearMonth.from(at.atZone(ZoneOffset.UTC)));
    }

    private static int monthKey(YearMonth m) {
        return m.getYear() * 100 + m.getMonthValue();
    }

    private String token(String user) {
        try {
            Process p = new ProcessBuilder(options.root() + "/bin/token", user, "3600")
                    .redirectError(ProcessBuilder.Redirect.INHERIT)
                    .start();
            String token = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            if (p.waitFor() != 0 || token.isEmpty()) {
                fail("bin/token " + user + " failed");
            }
            return token;
        } catch (IOException e) {
            throw new IllegalStateException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A run id: every name a run creates carries it, so runs never collide. */
    private static String randomId() {
        return Long.toString(new SecureRandom().nextLong() >>> 28, 36);
    }

    static void fail(String message) {
        System.err.println("bench-open: " + message);
        System.exit(2);
    }
}
