package dev.cqlpatterns.messenger.inbox;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.messenger.MessengerSettings;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.time.WriteTimestamps;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.UUID;

/**
 * inbox_by_day: a user's conversations by the day of their last activity, with the days listed in
 * time_buckets. Every write carries an explicit write timestamp in microseconds.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
class InboxDayRows {
    /** The days of a user's activity: one bucket per UTC day, kept as long as the conversations. */
    static final TimeSeries DAYS = TimeSeries.perEntity("inbox", Granularity.DAY, Optional.empty());

    private static final Query INSERT_DAY = Cql.idempotent(
            "INSERT INTO inbox_by_day (username, day, conversation_id, last_at) VALUES (?, ?, ?, ?) USING TIMESTAMP ?");
    private static final Query DELETE_DAY = Cql.idempotent(
            "DELETE FROM inbox_by_day USING TIMESTAMP ? WHERE username = ? AND day = ? AND conversation_id = ?");
    /** One day's rows. */
    private static final Query DAY_ROWS =
            Cql.idempotent("SELECT conversation_id, last_at FROM inbox_by_day WHERE username = ? AND day = ?");

    @Inject
    Cql cql;

    @Inject
    BucketRegistry buckets;

    @Inject
    MessengerSettings settings;

    /** Lists the day of {@code at} among the user's days, then writes the conversation's row of that day. */
    Uni<Void> listed(String username, UUID conversationId, Instant at, long timestamp) {
        Instant ms = at.truncatedTo(ChronoUnit.MILLIS);
        return buckets.record(DAYS, username, ms)
                .chain(day -> cql.write(INSERT_DAY, username, day, conversationId, ms, timestamp))
                .replaceWithVoid();
    }

    /**
     * Deletes the row of the day of {@code from} when {@code to} falls on a later day, with that day's
     * last microsecond as timestamp: it shadows every write of the row, so no late or replayed write
     * brings it back (inbox_by_day).
     */
    Uni<Void> movedOn(String username, UUID conversationId, Instant from, Instant to) {
        int day = DAYS.granularity().key(from);
        if (day >= DAYS.granularity().key(to)) {
            return Uni.createFrom().voidItem();
        }
        long lastMicro = WriteTimestamps.micros(DAYS.granularity().end(day)) - 1;
        return cql.write(DELETE_DAY, lastMicro, username, day, conversationId).replaceWithVoid();
    }

    /** Deletes the conversation's row of the day of {@code last}, its last activity, as of {@code at}. */
    Uni<Void> delete(String username, UUID conversationId, Instant last, Instant at) {
        return cql.write(
                        DELETE_DAY,
                        WriteTimestamps.micros(at),
                        username,
                        DAYS.granularity().key(last),
                        conversationId)
                .replaceWithVoid();
    }

    /**
     * The rows of the days of {@code lastActivity} (each conversation's last activity), for a user whose
     * summaries predate the index: one unlogged batch per day, with the day listed first.
     */
    Uni<Void> index(String username, Map<UUID, Instant> lastActivity) {
        Map<Integer, List<Uni<BoundStatement>>> byDay = new TreeMap<>();
        Map<Integer, Instant> dayStart = new TreeMap<>();
        lastActivity.forEach((id, at) -> {
            Instant ms = at.truncatedTo(ChronoUnit.MILLIS);
            int day = DAYS.granularity().key(ms);
            dayStart.putIfAbsent(day, ms);
            byDay.computeIfAbsent(day, d -> new ArrayList<>())
                    .add(cql.bind(INSERT_DAY, username, day, id, ms, WriteTimestamps.micros(ms)));
        });
        List<Uni<Void>> days = byDay.entrySet().stream()
                .map(e -> buckets.record(DAYS, username, dayStart.get(e.getKey()))
                        .chain(() -> cql.onePartition(e.getValue()))
                        .replaceWithVoid())
                .toList();
        return days.isEmpty()
                ? Uni.createFrom().voidItem()
                : Uni.join().all(days).andFailFast().replaceWithVoid();
    }

    /** Every row of one day of the user's, in no order: the day is bounded by the user's conversations. */
    Uni<List<Position>> day(String username, int day) {
        int pageSize = settings.maxInboxConversations() + 100;
        return cql.read(DAY_ROWS, b -> b.setPageSize(pageSize), username, day).map(rs -> {
            List<Position> rows = new ArrayList<>();
            for (Row row : Cql.rows(rs)) {
                rows.add(new Position(
                        row.getInstant("last_at"),
                        row.getUuid("conversation_id").toString()));
            }
            return rows;
        });
    }
}
