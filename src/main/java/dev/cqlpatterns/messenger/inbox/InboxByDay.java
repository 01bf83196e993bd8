package dev.cqlpatterns.messenger.inbox;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.messenger.MessengerSettings;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.BucketWalk;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.idempotency.IdempotencySettings;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One page of GET /inbox in the order of inbox_by_day: the caller's days
 * of activity newest first (BucketWalk over time_buckets), each day's rows sorted here by last
 * activity, each row listed when its conversation's summary last moved on that day. A caller whose
 * summaries predate the index (days_indexed unset) is answered from every summary, and their rows
 * are written before the answer.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
class InboxByDay {
    private static final Granularity DAY = InboxDayRows.DAYS.granularity();

    /** The greatest conversation id as text: with a day's last millisecond, a position above every row of the day. */
    private static final String TOP_ID = "ffffffff-ffff-ffff-ffff-ffffffffffff";
    /** Summaries read beyond those the page still needs, for rows that turn out not to be listed. */
    private static final int SLACK = 16;
    /** Newest and then greatest id first: the order of the list, and of the cursor's position. */
    private static final Comparator<Position> POSITIONS = Comparator.comparing(Position::lastAt)
            .thenComparing(Position::conversationId)
            .reversed();

    private static final Comparator<Listed> ORDER = Comparator.comparing(Listed::key, POSITIONS);

    @Inject
    InboxRows inboxRows;

    @Inject
    InboxDayRows dayRows;

    @Inject
    BucketWalk walk;

    @Inject
    BucketRegistry buckets;

    @Inject
    MessengerSettings settings;

    @Inject
    IdempotencySettings idempotency;

    @Inject
    Clock clock;

    /** A row of a day that is listed: its summary, and its place in the order (the row's own time). */
    private record Listed(Summary summary, Position key) {}

    Uni<SummaryPage> page(String me, int size, Position after) {
        Instant now = clock.instant();
        // No send writes into a day that ended before this.
        Instant settledBefore = idempotency.settledBefore(now);
        Set<Integer> empty = ConcurrentHashMap.newKeySet();
        BucketWalk.Mark<Position> from = after == null ? null : new BucketWalk.Mark<>(DAY.key(after.lastAt()), after);
        // Tomorrow's day too: a clock of another replica may run ahead.
        int newest = DAY.key(now.plus(Duration.ofDays(1)));
        // Whether the user's days are indexed comes with any summary read (a static column); read alone
        // only when the walk read none.
        AtomicReference<Boolean> indexed = new AtomicReference<>();
        return walk.page(
                        InboxDayRows.DAYS,
                        me,
                        newest,
                        0,
                        from,
                        size,
                        walk.budget(),
                        Listed::key,
                        (day, afterKey, n) -> day(me, day, afterKey, n, settledBefore, empty, indexed))
                .chain(page -> (indexed.get() != null
                                ? Uni.createFrom().item(indexed.get())
                                : inboxRows.daysIndexed(me))
                        .chain(isIndexed -> {
                            if (!isIndexed) {
                                return everySummary(me, size, after, now);
                            }
                            BucketWalk.Mark<Position> next = page.next();
                            Position cursor = next == null
                                    ? null
                                    : next.after() != null
                                            ? next.after()
                                            : new Position(
                                                    DAY.end(next.bucket()).minusMillis(1), TOP_ID);
                            SummaryPage paged = new SummaryPage(
                                    page.items().stream().map(Listed::summary).toList(), cursor);
                            return forget(me, empty).replaceWith(paged);
                        }));
    }

    /**
     * Reads a day whole and lists, after {@code after}, up to {@code n} of its rows whose summary's last
     * activity falls on that day, reading the summaries of the rows it still needs (and a few more) at
     * a time. A day read whole from its top with nothing listed and no write to come is noted in
     * {@code empty}, to be dropped from the user's days.
     */
    private Uni<BucketWalk.Chunk<Listed, Position>> day(
            String me,
            int day,
            Position after,
            int n,
            Instant settledBefore,
            Set<Integer> empty,
            AtomicReference<Boolean> indexed) {
        return dayRows.day(me, day).chain(all -> {
            List<Position> rows = new ArrayList<>();
            for (Position key : all) {
                if (after == null || after.isBefore(key.lastAt(), key.conversationId())) {
                    rows.add(key);
                }
            }
            rows.sort(POSITIONS);
            return check(me, day, rows, 0, n, new ArrayList<>(), indexed).invoke(chunk -> {
                if (after == null
                        && chunk.exhausted()
                        && chunk.items().isEmpty()
                        && DAY.end(day).isBefore(settledBefore)) {
                    empty.add(day);
                }
            });
        });
    }

    /** Checks {@code rows} from {@code from} on against their summaries until {@code n} are listed or none is left. */
    private Uni<BucketWalk.Chunk<Listed, Position>> check(
            String me,
            int day,
            List<Position> rows,
            int from,
            int n,
            List<Listed> listed,
            AtomicReference<Boolean> indexed) {
        if (listed.size() >= n || from >= rows.size()) {
            boolean exhausted = from >= rows.size();
            Position last = from == 0 ? null : rows.get(from - 1);
            return Uni.createFrom().item(new BucketWalk.Chunk<>(List.copyOf(listed), last, exhausted));
        }
        List<Position> chunk = rows.subList(from, Math.min(rows.size(), from + n - listed.size() + SLACK));
        List<UUID> ids =
                chunk.stream().map(p -> UUID.fromString(p.conversationId())).toList();
        return inboxRows.summaries(me, ids).chain(summaries -> {
            Map<UUID, Row> byId = new HashMap<>();
            summaries.forEach(s -> byId.put(s.getUuid("conversation_id"), s));
            if (!summaries.isEmpty()) {
                indexed.set(Boolean.TRUE.equals(summaries.get(0).get("days_indexed", Boolean.class)));
            }
            int next = from;
            for (Position key : chunk) {
                next++;
                Row summary = byId.get(UUID.fromString(key.conversationId()));
                if (summary != null && Summary.isMember(summary) && DAY.key(Summary.lastAtOf(summary)) == day) {
                    UUID id = UUID.fromString(key.conversationId());
                    listed.add(new Listed(new Summary(id, summary, Summary.lastAtOf(summary)), key));
                    if (listed.size() >= n) {
                        break;
                    }
                }
            }
            return check(me, day, rows, next, n, listed, indexed);
        });
    }

    /** Drops the days found empty; the page does not depend on it, so a failure is left to the next read. */
    private Uni<Void> forget(String me, Set<Integer> days) {
        if (days.isEmpty()) {
            return Uni.createFrom().voidItem();
        }
        List<Uni<Void>> drops = days.stream()
                .map(day -> buckets.forget(InboxDayRows.DAYS, me, day))
                .toList();
        return Uni.join()
                .all(drops)
                .andCollectFailures()
                .onFailure()
                .recoverWithNull()
                .replaceWithVoid();
    }

    /**
     * The first read of a user whose summaries may predate the index: every summary, sorted here,
     * answers the page; the rows of their days are written first, then days_indexed.
     */
    private Uni<SummaryPage> everySummary(String me, int size, Position after, Instant now) {
        return inboxRows.everySummary(me).chain(rows -> {
            Map<UUID, Instant> lastActivity = new LinkedHashMap<>();
            List<Listed> all = new ArrayList<>();
            for (Summary s : Summary.ofMembers(rows)) {
                lastActivity.put(s.id(), s.lastAt());
                // In the order of the index: the row's time is the millisecond of the last activity.
                all.add(new Listed(s, new Position(s.lastAt().truncatedTo(ChronoUnit.MILLIS), s.id().toString())));
            }
            all.sort(ORDER);
            List<Listed> found = all.stream()
                    .filter(l -> after == null
                            || after.isBefore(l.key().lastAt(), l.key().conversationId()))
                    .limit(size + 1L)
                    .toList();
            Position next = found.size() > size ? found.get(size - 1).key() : null;
            return dayRows.index(me, lastActivity)
                    .chain(() -> inboxRows.markDaysIndexed(me, now))
                    .replaceWith(
                            new SummaryPage(found.stream().map(Listed::summary).toList(), next));
        });
    }
}
