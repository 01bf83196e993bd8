package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.idempotency.IdempotencySettings;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /inbox: the view of seed 001 (cql/SEEDS.md) loaded on every page: each conversation of the caller with its last
 * message, unread count and first unread time, most recent activity first. The order comes from an index, chosen by
 * cql-patterns.messenger.inbox-index: inbox_by_day (cql/015, {@link InboxByDay}) or inbox_by_activity (cql/014,
 * read here: in order from the page's start, then just those conversations' summaries (one IN read), keeping the
 * rows that match their summary's last activity, until the page is full; superseded rows met on the way are
 * deleted; before the index is complete for the caller, and past {@link #MAX_ROUNDS} index reads, it reads every
 * summary and sorts them, and the first such read writes the missing index rows). Then, for the conversations of
 * the page that got a message from someone else after the caller's last mark-read, at most cap + 1 of their unread
 * markers, oldest first (cql/013_unread_window.cql): the count is exact up to the cap whatever the number unread.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/inbox")
@Tag(name = "messenger")
@Authenticated
public class Inbox {
    /** Index reads a page may take (each with its IN read of summaries) before it reads every summary instead. */
    static final int MAX_ROUNDS = 3;
    /** Index rows read beyond those the page still needs, for the stale ones met on the way. */
    private static final int SLACK = 16;
    /** Conversations whose read_up_to lie within this of each other are counted by one read. */
    private static final Duration ONE_READ_WINDOW = Duration.ofMinutes(1);
    /** The window in a timeuuid's 100 ns ticks. */
    private static final long ONE_READ_WINDOW_TICKS = ONE_READ_WINDOW.toNanos() / 100;

    @Inject
    Caller caller;

    @Inject
    Cql cql;

    @Inject
    Cursors cursors;

    @Inject
    MessengerSettings settings;

    @Inject
    InboxRows inboxRows;

    @Inject
    InboxByDay byDay;

    @Inject
    Clock clock;

    @Inject
    IdempotencySettings idempotency;

    @Schema(name = "InboxEntry")
    public record InboxEntry(
            @Schema(format = "uuid", examples = "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b")
            String conversationId,

            @Schema(enumeration = {"direct", "group"}) String kind,

            @Schema(
                    description = "Title of the conversation, if it has one",
                    nullable = true,
                    maxLength = 100,
                    pattern = Text.SINGLE_LINE,
                    examples = "Weekend trip")
            String title,

            @Schema(
                    pattern = Usernames.ANSWERED,
                    description = "The other member of a 1:1 conversation",
                    nullable = true,
                    examples = "bob")
            String partner,

            @Schema(
                    description = "The last message, stripped; one longer than 100 characters "
                            + "(cql-patterns.messenger.preview-length) is cut to its first 99 and \"…\"",
                    maxLength = 100,
                    pattern = Text.FREE_TEXT,
                    nullable = true,
                    examples = "Where are you?")
            String lastMessage,

            @Schema(format = "uuid", nullable = true, examples = "5c1f0a10-3e8b-11f0-9a0b-8d3c6f1e2a4b")
            String lastMessageId,

            @Schema(
                    description = "When the last message was sent; before any, when the caller joined",
                    examples = "2025-06-01T10:15:30.123Z")
            Instant lastAt,

            @Schema(pattern = Usernames.ANSWERED, nullable = true, examples = "bob")
            String lastSender,

            @Schema(
                    description = "Messages from others the caller has not read: exact up to 99 "
                            + "(cql-patterns.messenger.unread-count-cap); 100 means more than 99 (show \"99+\")",
                    examples = "2")
            long unreadCount,
            // A plain string schema: a nullable $ref to Instant is not nullable in OpenAPI 3.0.
            @Schema(
                    description = "When the oldest unread message was sent; null when none is unread",
                    implementation = String.class,
                    format = "date-time",
                    nullable = true,
                    examples = "2025-06-01T10:14:02.500Z")
            Instant firstUnreadAt) {}

    /** The last entry of the previous page, in the order of the list. */
    @RegisterForReflection // read back from cursors by Jackson, also in a native image
    public record Position(
            @NotNull Instant lastAt,

            @NotNull @Pattern(regexp = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
            String conversationId) {

        /**
         * True when an entry at {@code at} with {@code id} comes after this position: older, or as old
         * with a smaller id (the order of inbox_by_activity's clustering, cql/014).
         */
        boolean isBefore(Instant at, String id) {
            int byTime = at.compareTo(lastAt);
            return byTime < 0 || byTime == 0 && id.compareTo(conversationId) < 0;
        }
    }

    /** The order of inbox_by_activity: last activity, newest first, then conversation id (as text), greatest first. */
    private static final Comparator<Summary> MOST_RECENT_FIRST = Comparator.comparing(Summary::lastAt)
            .thenComparing(s -> s.id().toString())
            .reversed();

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "The caller's conversations, most recent activity first, with unread counts",
            description = "The caller's conversations in order of last activity from the inbox's index (a few "
                    + "statements a page: the index and the page's summaries), then one statement per conversation "
                    + "of the page with messages after the caller's last mark-read, reading at most 100 of its unread "
                    + "markers. A caller's first read reads every summary instead (X-Statements and X-Partitions-Read "
                    + "say which).")
    public Uni<Page<InboxEntry>> inbox(
            @Parameter(description = "Page size, 1 to 500 (default 50)", example = "50") @QueryParam("limit")
                    Integer limit,
            @Parameter(description = "The next value of the previous page") @QueryParam("cursor") String cursor) {
        String me = caller.username();
        int size = cursors.limit(limit);
        String scope = "inbox:" + me;
        Position after = cursors.decode(scope, cursor, Position.class).orElse(null);
        Uni<Paged> paged = settings.inboxIndex() == MessengerSettings.InboxIndex.DAYS
                ? byDay.page(me, size, after)
                : byActivity(me, size, after);
        return paged.chain(page -> withUnread(
                        me, page.found().subList(0, Math.min(size, page.found().size())))
                .map(entries -> Page.of(entries, page.next() == null ? null : cursors.encode(scope, page.next()))));
    }

    /** A page of summaries: up to one more than asked (a next page exists), and where the next page starts. */
    record Paged(List<Summary> found, Position next) {}

    /** The page in the order of inbox_by_activity (cql/014). */
    private Uni<Paged> byActivity(String me, int size, Position after) {
        Walk walk = new Walk(me, size, after, idempotency.settledBefore(clock.instant()));
        return walk.round(after, 1)
                .chain(found ->
                        found == null ? everySummary(walk) : Uni.createFrom().item(found))
                .call(walk::cleanUp)
                .map(found -> {
                    Summary last = found.size() > size ? found.get(size - 1) : null;
                    return new Paged(
                            found,
                            last == null
                                    ? null
                                    : new Position(last.lastAt(), last.id().toString()));
                });
    }

    /**
     * One page's walk down inbox_by_activity: the entries found so far (a page and one more, to know
     * whether a next page exists), and the superseded rows met, deleted once the page is known.
     */
    private final class Walk {
        final String me;
        final int size;
        final Position after;
        /** Rows neither matching nor superseded (a send racing a leave) are deleted once older than this. */
        final Instant settled;

        final List<Summary> found = new ArrayList<>();
        final List<Uni<BoundStatement>> superseded = new ArrayList<>();
        /** The index rows of a first read, checked against every summary once they are read. */
        List<Row> unchecked = List.of();

        boolean backfill;

        Walk(String me, int size, Position after, Instant settled) {
            this.me = me;
            this.size = size;
            this.after = after;
            this.settled = settled;
        }

        /**
         * Reads the index after {@code from} and those rows' summaries; answers the entries once the
         * page is full or the index ends, or null when every summary must be read instead (the index
         * is not complete yet, or MAX_ROUNDS reads did not fill the page).
         */
        Uni<List<Summary>> round(Position from, int round) {
            int want = size + 1 - found.size() + SLACK * round;
            Uni<AsyncResultSet> read = from == null
                    ? cql.read(InboxRows.ACTIVITY, me, want)
                    : cql.read(InboxRows.ACTIVITY_AFTER, me, from.lastAt(), from.conversationId(), want);
            return read.chain(rs -> {
                List<Row> rows = Cql.rows(rs);
                // The static column comes with every row, and alone in a partition without rows. A read after
                // a cursor that finds no row trusts the index: the cursor's page found it complete or completed it.
                boolean unknown = rows.isEmpty()
                        ? from == null
                        : !Boolean.TRUE.equals(rows.get(0).get("backfilled", Boolean.class));
                List<Row> listed = rows.stream()
                        .filter(r -> r.getInstant("last_at") != null)
                        .toList();
                if (unknown) {
                    backfill = true;
                    unchecked = listed;
                    return Uni.createFrom().nullItem();
                }
                // The summaries of the rows the page still needs first; those of the slack only when some of
                // these did not match (a superseded row, usually none): 51 summaries a page of 50, not 67.
                int needed = Math.min(listed.size(), size + 1 - found.size());
                return check(listed.subList(0, needed), Map.of())
                        .chain(byId -> found.size() > size || needed == listed.size()
                                ? Uni.createFrom().item(byId)
                                : check(listed.subList(needed, listed.size()), byId))
                        .chain(byId -> {
                            if (found.size() > size || rows.size() < want || listed.isEmpty()) {
                                return Uni.createFrom().item(found);
                            }
                            if (round == MAX_ROUNDS) {
                                return Uni.createFrom().nullItem();
                            }
                            Row last = listed.get(listed.size() - 1);
                            return round(
                                    new Position(last.getInstant("last_at"), last.getString("conversation_id")),
                                    round + 1);
                        });
            });
        }

        /**
         * Checks index rows in order against their summaries, reading those not in {@code known} (one IN
         * read), and answers the summaries known after it.
         */
        Uni<Map<UUID, Row>> check(List<Row> rows, Map<UUID, Row> known) {
            List<UUID> ids = rows.stream()
                    .map(r -> UUID.fromString(r.getString("conversation_id")))
                    .distinct()
                    .filter(id -> !known.containsKey(id))
                    .toList();
            Uni<Map<UUID, Row>> summaries = ids.isEmpty()
                    ? Uni.createFrom().item(known)
                    : inboxRows.summaries(me, ids).map(read -> {
                        Map<UUID, Row> byId = byId(read);
                        byId.putAll(known);
                        return byId;
                    });
            return summaries.invoke(byId -> rows.forEach(row -> check(row, byId).ifPresent(found::add)));
        }

        /**
         * An index row is listed when its summary's last activity is the row's; a row older than
         * that is superseded for good (the summary only moves forward) and deleted; any other (no
         * summary, or a newer row whose summary write is still on its way) is skipped, and deleted
         * only once older than any replay of its write (settled).
         */
        Optional<Summary> check(Row row, Map<UUID, Row> byId) {
            UUID id = UUID.fromString(row.getString("conversation_id"));
            Instant at = row.getInstant("last_at");
            Row summary = byId.get(id);
            Instant current = summary != null && InboxRows.isMember(summary) ? InboxRows.lastAt(summary) : null;
            if (at.equals(current)) {
                return Optional.of(new Summary(id, summary, at));
            }
            if (current != null && current.isAfter(at) || at.isBefore(settled)) {
                superseded.add(inboxRows.inactive(me, id, at));
            }
            return Optional.empty();
        }

        Uni<Void> cleanUp() {
            if (superseded.isEmpty()) {
                return Uni.createFrom().voidItem();
            }
            // The page does not depend on it: a failed clean-up is done again by the next read.
            return inboxRows.together(superseded).onFailure().recoverWithNull().replaceWithVoid();
        }
    }

    /**
     * The read of every summary, sorted here: bounded by the caller's conversations (at most 3,000).
     * The caller's first read of the activity index (cql/014) also writes the index rows of every summary, then
     * marks the index complete, in one batch of their partition before it answers.
     */
    private Uni<List<Summary>> everySummary(Walk walk) {
        return inboxRows
                .everySummary(walk.me)
                .chain(rows -> {
                    List<Summary> summaries = summaries(rows);
                    Map<UUID, Row> byId = byId(rows);
                    walk.unchecked.forEach(row -> walk.check(row, byId));
                    if (!walk.backfill) {
                        return Uni.createFrom().item(summaries);
                    }
                    List<Uni<BoundStatement>> writes = new ArrayList<>();
                    summaries.forEach(s -> writes.add(inboxRows.activity(walk.me, s.id(), s.lastAt())));
                    writes.add(cql.bind(InboxRows.BACKFILLED, InboxRows.micros(clock.instant()), walk.me));
                    // The superseded rows met go in the same batch of the partition.
                    writes.addAll(walk.superseded);
                    walk.superseded.clear();
                    return inboxRows.together(writes).replaceWith(summaries);
                })
                .map(summaries -> walk.after == null
                        ? summaries
                        : summaries.stream()
                                .filter(e -> walk.after.isBefore(e.lastAt(), e.id().toString()))
                                .toList());
    }

    /** A summary row of a conversation the caller is in, before its unread count is known. */
    record Summary(UUID id, Row row, Instant lastAt) {
        /** Markers may exist only when a message from someone else came after the last mark-read. */
        boolean mayHaveUnread(String me) {
            UUID lastUnread = row.getUuid("last_unread_id");
            UUID readUpTo = row.getUuid("read_up_to");
            if (lastUnread == null) {
                // Rows no send has touched since last_unread_id exists (cql/013): count when the last message came from
                // someone else.
                return readUpTo == null
                        && row.getString("last_sender") != null
                        && !me.equals(row.getString("last_sender"));
            }
            return readUpTo == null || lastUnread.timestamp() > readUpTo.timestamp();
        }

        /** The end of the caller's last mark-read, or before every message when none. */
        UUID readUpTo() {
            UUID readUpTo = row.getUuid("read_up_to");
            return readUpTo == null ? InboxRows.NEVER_READ : readUpTo;
        }
    }

    /**
     * The page's entries with their unread counts. Conversations that may have markers (a message
     * from someone else after the last mark-read) are counted in groups whose read_up_to lie within
     * {@link #ONE_READ_WINDOW} of the group's earliest, each group by one read of all their markers
     * after that earliest, at most cap + 1 rows in all; when that read is full, the conversations it
     * did not see to their end are counted one capped read each (cql/013_unread_window.cql), as is a
     * conversation alone in its group. A read from an earlier read_up_to than a conversation's own
     * crosses the markers its later mark-reads deleted (range tombstones, and the rows they shadow
     * until compaction meets them); the window bounds those to what arrived within it.
     */
    private Uni<List<InboxEntry>> withUnread(String me, List<Summary> page) {
        List<Summary> counted = page.stream()
                .filter(s -> s.mayHaveUnread(me))
                .sorted(Comparator.comparingLong(s -> s.readUpTo().timestamp()))
                .toList();
        List<List<Summary>> groups = new ArrayList<>();
        for (Summary s : counted) {
            List<Summary> last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
            if (last != null
                    && s.readUpTo().timestamp() - last.get(0).readUpTo().timestamp() <= ONE_READ_WINDOW_TICKS) {
                last.add(s);
            } else {
                groups.add(new ArrayList<>(List.of(s)));
            }
        }
        List<Uni<Map<UUID, Unread>>> reads = new ArrayList<>();
        reads.add(eachUnread(
                me,
                groups.stream().filter(g -> g.size() == 1).map(g -> g.get(0)).toList()));
        groups.stream().filter(g -> g.size() > 1).forEach(g -> reads.add(unreadTogether(me, g)));
        Uni<Map<UUID, Unread>> unread = Uni.join().all(reads).andFailFast().map(counts -> {
            Map<UUID, Unread> byId = new HashMap<>();
            counts.forEach(byId::putAll);
            return byId;
        });
        return unread.map(byId -> page.stream()
                .map(s -> {
                    Unread u = byId.getOrDefault(s.id(), Unread.NONE);
                    return entry(s, u.count(), u.first());
                })
                .toList());
    }

    /** A conversation's markers after its read_up_to: how many (at most cap + 1) and the oldest's time. */
    private record Unread(int count, Instant first) {
        static final Unread NONE = new Unread(0, null);

        static Unread of(List<UUID> markers) {
            // One Instant for the oldest, not one per marker (up to cap + 1 of them).
            return new Unread(
                    markers.size(),
                    markers.stream()
                            .min(Comparator.comparingLong(UUID::timestamp))
                            .map(TimeUuids::instant)
                            .orElse(null));
        }
    }

    /** A page that holds every row of a read limited to {@code limit}: counts read one page only. */
    private static UnaryOperator<BoundStatementBuilder> onePage(int limit) {
        return b -> b.setPageSize(limit);
    }

    /** One capped read per conversation, oldest markers first. */
    private Uni<Map<UUID, Unread>> eachUnread(String me, List<Summary> conversations) {
        if (conversations.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        int cap = settings.unreadCountCap();
        List<Uni<Map.Entry<UUID, Unread>>> reads = conversations.stream()
                .map(s -> cql.read(InboxRows.UNREAD_AFTER, onePage(cap + 1), me, s.id(), s.readUpTo(), cap + 1)
                        .map(rs -> {
                            // Oldest first, all after read_up_to, in one page: the count is the rows', the oldest
                            // is the first; no marker decoded but that one (up to cap + 1 of them).
                            int count = rs.remaining();
                            Row oldest = rs.one();
                            Instant first = oldest == null ? null : TimeUuids.instant(oldest.getUuid(0));
                            return Map.entry(s.id(), new Unread(count, first));
                        }))
                .toList();
        return Uni.join().all(reads).andFailFast().map(done -> {
            Map<UUID, Unread> byId = new HashMap<>();
            done.forEach(e -> byId.put(e.getKey(), e.getValue()));
            return byId;
        });
    }

    /**
     * The markers of several conversations in one read after the earliest read_up_to among them (the
     * first: they come sorted; those at or before a conversation's own read_up_to are dropped here),
     * at most cap + 1 rows in all.
     * Rows come grouped by conversation: when fewer than the limit came, every count is exact; when
     * the read is full, every conversation whose group ended before the last row's is exact, and the
     * last one and those not seen are read again one by one.
     */
    private Uni<Map<UUID, Unread>> unreadTogether(String me, List<Summary> conversations) {
        int limit = settings.unreadCountCap() + 1;
        Map<UUID, Summary> byId = new HashMap<>();
        conversations.forEach(s -> byId.put(s.id(), s));
        UUID from = conversations.get(0).readUpTo();
        return cql.read(InboxRows.UNREAD_OF_SOME, onePage(limit), me, List.copyOf(byId.keySet()), from, limit)
                .chain(rs -> {
                    List<Row> rows = Cql.rows(rs);
                    Map<UUID, List<UUID>> markers = new LinkedHashMap<>();
                    for (Row row : rows) {
                        UUID id = row.getUuid("conversation_id");
                        UUID marker = row.getUuid("message_id");
                        List<UUID> of = markers.computeIfAbsent(id, k -> new ArrayList<>());
                        // read_up_to is the last timeuuid of its millisecond: a marker is after it when its time is.
                        if (marker.timestamp() > byId.get(id).readUpTo().timestamp()) {
                            of.add(marker);
                        }
                    }
                    Map<UUID, Unread> counted = new HashMap<>();
                    List<Summary> again = new ArrayList<>();
                    UUID last = rows.size() < limit
                            ? null
                            : rows.get(rows.size() - 1).getUuid("conversation_id");
                    for (Summary s : conversations) {
                        if (last == null || markers.containsKey(s.id()) && !s.id().equals(last)) {
                            counted.put(s.id(), Unread.of(markers.getOrDefault(s.id(), List.of())));
                        } else {
                            again.add(s);
                        }
                    }
                    return eachUnread(me, again).map(more -> {
                        counted.putAll(more);
                        return counted;
                    });
                });
    }

    private static Map<UUID, Row> byId(List<Row> summaries) {
        Map<UUID, Row> byId = new HashMap<>();
        summaries.forEach(row -> byId.put(row.getUuid("conversation_id"), row));
        return byId;
    }

    /** The summaries of conversations the caller is in, most recent activity first. */
    static List<Summary> summaries(List<Row> rows) {
        List<Summary> summaries = new ArrayList<>();
        for (Row s : rows) {
            if (InboxRows.isMember(s)) {
                summaries.add(new Summary(s.getUuid("conversation_id"), s, InboxRows.lastAt(s)));
            }
        }
        summaries.sort(MOST_RECENT_FIRST);
        return summaries;
    }

    private static InboxEntry entry(Summary summary, long unread, Instant firstUnread) {
        Row s = summary.row();
        UUID lastId = s.getUuid("last_message_id");
        return new InboxEntry(
                summary.id().toString(),
                s.getBoolean("direct") ? "direct" : "group",
                s.getString("title"),
                s.getString("partner"),
                s.getString("last_preview"),
                lastId == null ? null : lastId.toString(),
                summary.lastAt(),
                s.getString("last_sender"),
                unread,
                firstUnread);
    }
}
