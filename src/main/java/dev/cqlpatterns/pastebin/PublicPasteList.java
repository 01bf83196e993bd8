package dev.cqlpatterns.pastebin;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Ttl;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.generations.Generational;
import dev.cqlpatterns.platform.generations.GenerationalSet;
import dev.cqlpatterns.platform.generations.PartitionGenerations;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The public list and every statement on its tables; its writes are shared by the functions that
 * change a paste, its reads are GET /pastes (LatestPublicPastes): latest_public_pastes_by_period
 * in generations (latest_public_pastes_by_period_generations). Every write carries USING
 * TIMESTAMP of the paste version it stands for, so writes of concurrent changes land in version
 * order whatever order they arrive in.
 *
 * <p>The rule the callers follow: a change that takes the paste off a list row ({@link #unlists}:
 * narrows who sees it, or moves it to another listing period) calls {@link #hide} before the
 * paste's transaction; a version that may be listed is {@link #show shown} after it. A writer that
 * dies half way leaves the paste out of the list, never listed in a state it does not have.
 *
 * <p>The list's writes are idempotent (same cells, USING TIMESTAMP the version), so the driver may
 * retry them, and a retry of a create with its Idempotency-Key writes them again (CreatePaste).
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class PublicPasteList {
    /** The list's buckets in time_buckets: one per day of created_at. */
    public static final String SERIES = "pastes";

    private static final Generational SHOW = Generational.idempotent(
            "INSERT INTO latest_public_pastes_by_period (day, listed_for, created_at, id, title, expires_at) "
                    + "VALUES (?, ?, ?, ?, ?, ?) USING TTL ? AND TIMESTAMP ?",
            "INSERT INTO latest_public_pastes_by_period_generations (day, generation, listed_for, created_at, id, "
                    + "title, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?) USING TTL ? AND TIMESTAMP ?");
    private static final Generational HIDE = Generational.idempotent(
            "DELETE FROM latest_public_pastes_by_period USING TIMESTAMP ? "
                    + "WHERE day = ? AND listed_for = ? AND created_at = ? AND id = ?",
            "DELETE FROM latest_public_pastes_by_period_generations USING TIMESTAMP ? "
                    + "WHERE day = ? AND generation = ? AND listed_for = ? AND created_at = ? AND id = ?");
    private static final Generational LISTED = Generational.idempotent(
            "SELECT listed_for, created_at, id, title, expires_at FROM latest_public_pastes_by_period "
                    + "WHERE day = ? AND listed_for = ? AND created_at > ?",
            "SELECT listed_for, created_at, id, title, expires_at FROM latest_public_pastes_by_period_generations "
                    + "WHERE day = ? AND generation = ? AND listed_for = ? AND created_at > ?");
    private static final Generational DROP = Generational.idempotent(
            "DELETE FROM latest_public_pastes_by_period WHERE day = ?",
            "DELETE FROM latest_public_pastes_by_period_generations WHERE day = ? AND generation = ?");
    private static final Generational NEWEST_OF_PERIOD = Generational.idempotent(
            "SELECT listed_for, created_at, id, title, expires_at FROM latest_public_pastes_by_period "
                    + "WHERE day = ? AND listed_for = ? AND created_at > ? LIMIT ?",
            "SELECT listed_for, created_at, id, title, expires_at FROM latest_public_pastes_by_period_generations "
                    + "WHERE day = ? AND generation = ? AND listed_for = ? AND created_at > ? LIMIT ?");
    private static final Generational OLDER_OF_PERIOD = Generational.idempotent(
            "SELECT listed_for, created_at, id, title, expires_at FROM latest_public_pastes_by_period "
                    + "WHERE day = ? AND listed_for = ? AND created_at > ? AND (created_at, id) < (?, ?) LIMIT ?",
            "SELECT listed_for, created_at, id, title, expires_at FROM latest_public_pastes_by_period_generations "
                    + "WHERE day = ? AND generation = ? AND listed_for = ? AND created_at > ? "
                    + "AND (created_at, id) < (?, ?) LIMIT ?");

    @Inject
    Cql cql;

    @Inject
    BucketRegistry registry;

    @Inject
    PastebinSettings settings;

    @Inject
    ListingPeriods periods;

    @Inject
    PartitionGenerations generations;

    @Inject
    Clock clock;

    /**
     * The day partitions of latest_public_pastes_by_period in generations: hides are the
     * removals counted; generation 0 is latest_public_pastes_by_period itself.
     */
    private final GenerationalSet<Integer> byPeriod = new GenerationalSet<>() {
        @Override
        public String name() {
            return "latest_public_pastes_by_period";
        }

        /** Copies each period's slice as a reader reads it, so the copy never reads an expired row either. */
        @Override
        public Uni<Long> copy(Integer day, int from, int to) {
            Instant now = clock.instant();
            Uni<Long> copied = Uni.createFrom().item(0L);
            for (int period : periods.periods()) {
                Instant since = ListingPeriods.listedSince(period, now);
                copied = copied.chain(
                        before -> copySlice(day, from, to, period, since, now).map(rows -> before + rows));
            }
            return copied;
        }

        private Uni<Long> copySlice(int day, int from, int to, int period, Instant since, Instant now) {
            return PartitionGenerations.forEachRow(
                    paging -> LISTED.read(cql, from, paging, day, period, since), row -> {
                        Instant ends = row.getInstant("created_at").plusSeconds(row.getInt("listed_for"));
                        if (!now.isBefore(ends)) {
                            return Uni.createFrom().voidItem();
                        }
                        return SHOW.write(
                                cql,
                                to,
                                day,
                                row.getInt("listed_for"),
                                row.getInstant("created_at"),
                                row.getUuid("id"),
                                row.getString("title"),
                                row.getInstant("expires_at"),
                                Ttl.until(ends, now),
                                COPIED);
                    });
        }

        @Override
        public Uni<Void> drop(Integer day, int generation) {
            return DROP.write(cql, generation, day).replaceWithVoid();
        }
    };

    private TimeSeries series;

    @PostConstruct
    void init() {
        series = TimeSeries.global(SERIES, Granularity.DAY, Optional.of(settings.listRetention()));
    }

    /** The list's time series, for the bucket roller and for readers. */
    @Produces
    @Singleton
    @Named(SERIES)
    TimeSeries latestPublicPastes() {
        return series;
    }

    TimeSeries series() {
        return series;
    }

    static int day(Instant at) {
        return Granularity.DAY.key(at);
    }

    /** Lists this version of a paste if it may be listed: public, unexpired, within the list's retention. */
    Uni<Void> show(PasteRow paste, Instant now) {
        if (!paste.listable(now) || !withinRetention(paste, now)) {
            return Uni.createFrom().voidItem();
        }
        int day = day(paste.createdAt());
        return registry.record(series, TimeSeries.GLOBAL, paste.createdAt())
                .chain(bucket -> showForPeriod(paste, day, now));
    }

    /** The row of latest_public_pastes_by_period, living until created_at + its period, whenever it is written. */
    private Uni<Void> showForPeriod(PasteRow paste, int day, Instant now) {
        int listedFor = periods.listedFor(paste);
        Instant ends = paste.createdAt().plusSeconds(listedFor);
        if (listedFor == 0 || !now.isBefore(ends)) {
            return Uni.createFrom().voidItem();
        }
        int ttl = Ttl.until(ends, now);
        return generations.change(
                byPeriod,
                day,
                false,
                g -> SHOW.write(
                        cql,
                        g,
                        day,
                        listedFor,
                        paste.createdAt(),
                        paste.id(),
                        paste.title(),
                        paste.expiresAt(),
                        ttl,
                        paste.version()));
    }

    /** Takes a paste off the list, as far as versions written at or before {@code timestamp} go. */
    Uni<Void> hide(PasteRow paste, long timestamp) {
        int day = day(paste.createdAt());
        int listedFor = periods.listedFor(paste);
        return listedFor == 0
                ? Uni.createFrom().voidItem()
                : generations.change(
                        byPeriod,
                        day,
                        true,
                        g -> HIDE.write(cql, g, timestamp, day, listedFor, paste.createdAt(), paste.id()));
    }

    /** A row of a day's list as read: the period it is listed for, and what the list shows of the paste. */
    record ListRow(int listedFor, Instant createdAt, UUID id, String title, Instant expiresAt) {
        private static ListRow of(Row row) {
            return new ListRow(
                    row.getInt("listed_for"),
                    row.getInstant("created_at"),
                    row.getUuid("id"),
                    row.getString("title"),
                    row.getInstant("expires_at"));
        }
    }

    /**
     * One listing period's slice of a day, in the day's generation {@code g}: at most {@code n} rows
     * newer than {@code since}, newest first, after {@code after} (null: from the newest).
     */
    Uni<List<ListRow>> readPeriod(int day, int g, int period, Instant since, LatestPublicPastes.Key after, int n) {
        Uni<AsyncResultSet> read;
        if (after == null) {
            read = NEWEST_OF_PERIOD.read(cql, g, day, period, since, n);
        } else {
            read = OLDER_OF_PERIOD.read(cql, g, day, period, since, after.createdAt(), after.id(), n);
        }
        return read.map(rs -> Cql.rows(rs).stream().map(ListRow::of).toList());
    }

    /** The generation of a day's partition of latest_public_pastes_by_period that reads read now. */
    Uni<Integer> generation(int day) {
        return generations.current(byPeriod, day);
    }

    /** Whether the paste's day is still within the list's retention. */
    private boolean withinRetention(PasteRow paste, Instant now) {
        Instant keepUntil = Granularity.DAY
                .end(day(paste.createdAt()))
                .atZone(ZoneOffset.UTC)
                .plus(settings.listRetention())
                .toInstant();
        return now.isBefore(keepUntil);
    }
}
