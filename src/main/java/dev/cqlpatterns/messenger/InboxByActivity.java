package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.idempotency.IdempotencySettings;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * The inbox in the order of inbox_by_activity (cql/014): the index read in order from the page's
 * start, then just those conversations' summaries (one IN read), keeping the rows that match their
 * summary's last activity, until the page is full. Superseded rows met on the way are deleted.
 * Before the index is complete for the caller, and past {@link #MAX_ROUNDS} index reads, it reads
 * every summary and sorts them; the first such read writes the missing index rows.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
class InboxByActivity {
    /** Index reads a page may take (each with its IN read of summaries) before it reads every summary instead. */
    static final int MAX_ROUNDS = 3;
    /** Index rows read beyond those the page still needs, for the stale ones met on the way. */
    private static final int SLACK = 16;

    @Inject
    Cql cql;

    @Inject
    InboxRows inboxRows;

    @Inject
    Clock clock;

    /** When a row that matches no summary may be deleted: once no replay of its write can come. */
    @Inject
    IdempotencySettings idempotency;

    /** A page of the caller's conversations in the order of inbox_by_activity. */
    Uni<Inbox.Paged> page(String me, int size, Inbox.Position after) {
        Walk walk = new Walk(me, size, after, idempotency.settledBefore(clock.instant()));
        return walk.round(after, 1)
                .chain(found ->
                        found == null ? everySummary(walk) : Uni.createFrom().item(found))
                .call(walk::cleanUp)
                .map(found -> {
                    Inbox.Summary last = found.size() > size ? found.get(size - 1) : null;
                    return new Inbox.Paged(
                            found,
                            last == null
                                    ? null
                                    : new Inbox.Position(
                                            last.lastAt(), last.id().toString()));
                });
    }

    /**
     * One page's walk down inbox_by_activity: the entries found so far (a page and one more, to know
     * whether a next page exists), and the superseded rows met, deleted once the page is known.
     */
    private final class Walk {
        final String me;
        final int size;
        final Inbox.Position after;
        /** Rows neither matching nor superseded (a send racing a leave) are deleted once older than this. */
        final Instant settled;

        final List<Inbox.Summary> found = new ArrayList<>();
        final List<Uni<BoundStatement>> superseded = new ArrayList<>();
        /** The index rows of a first read, checked against every summary once they are read. */
        List<Row> unchecked = List.of();

        boolean backfill;

        Walk(String me, int size, Inbox.Position after, Instant settled) {
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
        Uni<List<Inbox.Summary>> round(Inbox.Position from, int round) {
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
                                    new Inbox.Position(last.getInstant("last_at"), last.getString("conversation_id")),
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
        Optional<Inbox.Summary> check(Row row, Map<UUID, Row> byId) {
            UUID id = UUID.fromString(row.getString("conversation_id"));
            Instant at = row.getInstant("last_at");
            Row summary = byId.get(id);
            Instant current = summary != null && InboxRows.isMember(summary) ? InboxRows.lastAt(summary) : null;
            if (at.equals(current)) {
                return Optional.of(new Inbox.Summary(id, summary, at));
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
    private Uni<List<Inbox.Summary>> everySummary(Walk walk) {
        return inboxRows
                .everySummary(walk.me)
                .chain(rows -> {
                    List<Inbox.Summary> summaries = Inbox.summaries(rows);
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

    private static Map<UUID, Row> byId(List<Row> summaries) {
        Map<UUID, Row> byId = new HashMap<>();
        summaries.forEach(row -> byId.put(row.getUuid("conversation_id"), row));
        return byId;
    }
}
