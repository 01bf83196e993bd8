package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.function.UnaryOperator;

/**
 * Unread counts for a page of the inbox. A summary counts what its member has not read as a
 * difference of two numbers on it, the messages from others so far and how many of them were read
 * (others_sent - others_read, cql/054): no read for the count, whatever the number unread. Where
 * some are unread, the first of them is the message after read_up_to, one row of
 * messages_by_previous (cql/061), none read when the one unread message is the last message; the
 * member's oldest unread marker (cql/013) where that row is missing (a message sent by a release that
 * does not write it).
 *
 * <p>A membership begun before positions (0.3.0) and never marked read since has no others_read:
 * its count is its unread markers after read_up_to, at most cap + 1 of them, oldest first
 * (cql/013_unread_window.cql), as every count was before.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
class UnreadCounts {
    /** The caller's own messages passed after read_up_to before the first unread is looked for in markers. */
    private static final int OWN_MESSAGES_PASSED = 3;
    /** Conversations whose read_up_to lie within this of each other are counted by one read. */
    private static final Duration ONE_READ_WINDOW = Duration.ofMinutes(1);
    /** The window in a timeuuid's 100 ns ticks. */
    private static final long ONE_READ_WINDOW_TICKS = ONE_READ_WINDOW.toNanos() / 100;

    @Inject
    Cql cql;

    @Inject
    MessengerSettings settings;

    @Inject
    MessagesByPrevious next;

    /** The unread counts of a page's conversations, by conversation id (none: nothing unread). */
    Uni<Map<UUID, Unread>> of(String me, List<Inbox.Summary> page) {
        long capped = settings.unreadCountCap() + 1L;
        List<Uni<Map<UUID, Unread>>> reads = new ArrayList<>();
        List<Inbox.Summary> fromMarkers = new ArrayList<>();
        for (Inbox.Summary s : page) {
            if (!s.counted()) {
                if (s.mayHaveUnread(me)) {
                    fromMarkers.add(s);
                }
                continue;
            }
            long unread = s.unread();
            if (unread == 1 && !me.equals(s.row().getString("last_sender"))) {
                // One unread, and the last message is someone else's: that one (others_sent is written with it).
                reads.add(Uni.createFrom().item(Map.of(s.id(), new Unread(1, s.lastAt()))));
            } else if (unread > 0) {
                reads.add(firstUnread(me, s)
                        .map(first -> Map.of(s.id(), new Unread((int) Math.min(unread, capped), first))));
            }
        }
        reads.add(fromMarkers(me, fromMarkers));
        return merged(reads);
    }

    /**
     * The time of the first message from someone else after the summary's read_up_to: the message after
     * it (messages_by_previous, cql/061), someone else's wherever its sender's read_up_to moved with it,
     * else the next one, at most {@link #OWN_MESSAGES_PASSED} of the caller's own passed (their sends
     * racing each other or their mark-read); when none is recorded, or more of their own come, the
     * oldest unread marker's (cql/013).
     */
    private Uni<Instant> firstUnread(String me, Inbox.Summary s) {
        return firstFromOthers(me, s, s.readUpTo(), OWN_MESSAGES_PASSED);
    }

    private Uni<Instant> firstFromOthers(String me, Inbox.Summary s, UUID after, int ownToPass) {
        return next.after(s.id(), after).chain(found -> {
            if (found.isPresent() && !me.equals(found.get().sender())) {
                return Uni.createFrom().item(TimeUuids.instant(found.get().messageId()));
            }
            return found.isPresent() && ownToPass > 0
                    ? firstFromOthers(me, s, found.get().messageId(), ownToPass - 1)
                    : oldestMarkers(me, s, 1).map(Unread::first);
        });
    }

    /**
     * The counts of conversations that may have markers (a message from someone else after the last
     * mark-read), counted in groups whose read_up_to lie within {@link #ONE_READ_WINDOW} of the group's
     * earliest, each group by one read of all their markers
     * after that earliest, at most cap + 1 rows in all; when that read is full, the conversations it
     * did not see to their end are counted one capped read each (cql/013_unread_window.cql), as is a
     * conversation alone in its group. A read from an earlier read_up_to than a conversation's own
     * crosses the markers its later mark-reads deleted (range tombstones, and the rows they shadow
     * until compaction meets them); the window bounds those to what arrived within it.
     */
    private Uni<Map<UUID, Unread>> fromMarkers(String me, List<Inbox.Summary> page) {
        if (page.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        List<Inbox.Summary> counted = page.stream()
                .sorted(Comparator.comparingLong(s -> s.readUpTo().timestamp()))
                .toList();
        List<List<Inbox.Summary>> groups = new ArrayList<>();
        for (Inbox.Summary s : counted) {
            List<Inbox.Summary> last = groups.isEmpty() ? null : groups.get(groups.size() - 1);
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
        return merged(reads);
    }

    /** The counts of several reads in one map. */
    private static Uni<Map<UUID, Unread>> merged(List<Uni<Map<UUID, Unread>>> reads) {
        return Uni.join().all(reads).andFailFast().map(counts -> {
            Map<UUID, Unread> byId = new HashMap<>();
            counts.forEach(byId::putAll);
            return byId;
        });
    }

    /** A conversation's unread messages: how many (at most cap + 1) and the oldest's time. */
    record Unread(int count, Instant first) {
        static final Unread NONE = new Unread(0, null);

        /** From a conversation's markers after its read_up_to. */
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
    private Uni<Map<UUID, Unread>> eachUnread(String me, List<Inbox.Summary> conversations) {
        if (conversations.isEmpty()) {
            return Uni.createFrom().item(Map.of());
        }
        int limit = settings.unreadCountCap() + 1;
        return merged(conversations.stream()
                .map(s -> oldestMarkers(me, s, limit).map(unread -> Map.of(s.id(), unread)))
                .toList());
    }

    /**
     * A conversation's oldest unread markers after its read_up_to, at most {@code limit}: how many, and
     * the oldest's time. Oldest first, in one page: only the first row is decoded.
     */
    private Uni<Unread> oldestMarkers(String me, Inbox.Summary s, int limit) {
        return cql.read(InboxRows.UNREAD_AFTER, onePage(limit), me, s.id(), s.readUpTo(), limit)
                .map(rs -> {
                    int count = rs.remaining();
                    Row oldest = rs.one();
                    return new Unread(count, oldest == null ? null : TimeUuids.instant(oldest.getUuid(0)));
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
    private Uni<Map<UUID, Unread>> unreadTogether(String me, List<Inbox.Summary> conversations) {
        int limit = settings.unreadCountCap() + 1;
        Map<UUID, Inbox.Summary> byId = new HashMap<>();
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
                    List<Inbox.Summary> again = new ArrayList<>();
                    UUID last = rows.size() < limit
                            ? null
                            : rows.get(rows.size() - 1).getUuid("conversation_id");
                    for (Inbox.Summary s : conversations) {
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
}
