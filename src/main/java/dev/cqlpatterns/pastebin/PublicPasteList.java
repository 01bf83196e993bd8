package dev.cqlpatterns.pastebin;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.inject.Singleton;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Optional;
import java.util.UUID;

/**
 * Writes of latest_public_pastes and public_paste_expiries (see cql/030_pastebin.cql), shared by
 * the functions that change a paste. Every write carries USING TIMESTAMP of the paste version it
 * stands for, so writes of concurrent changes land in version order whatever order they arrive in.
 *
 * <p>The rule the callers follow: a change that narrows who sees the paste ({@link #narrows})
 * calls {@link #hide} before the paste's transaction; a version that may be listed is
 * {@link #show shown} after it. A writer that dies half way leaves the paste out of the list,
 * never listed in a state it does not have.

 *
 * <p>The list's writes are idempotent (same cells, USING TIMESTAMP the version), so the driver may
 * retry them, and a retry of a create with its Idempotency-Key writes them again (CreatePaste).
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class PublicPasteList {
    /** The list's buckets in time_buckets: one per day of created_at. */
    public static final String SERIES = "pastes";
    /** Expiry rows outlive their expiry by a day, longer than the sweeper looks back. */
    static final int EXPIRY_ROW_GRACE_SECONDS = 86_400;

    private static final Query SHOW = Cql.idempotent("INSERT INTO latest_public_pastes (day, created_at, id, title, "
            + "expires_at) VALUES (?, ?, ?, ?, ?) USING TTL ? AND TIMESTAMP ?");
    private static final Query EXPIRES = Cql.idempotent("INSERT INTO public_paste_expiries (day, expires_at, id, "
            + "listed_day, listed_created_at, listed_version) VALUES (?, ?, ?, ?, ?, ?) USING TTL ? AND TIMESTAMP ?");
    private static final Query HIDE = Cql.idempotent(
            "DELETE FROM latest_public_pastes USING TIMESTAMP ? WHERE day = ? AND created_at = ? AND id = ?");

    @Inject
    Cql cql;

    @Inject
    BucketRegistry registry;

    @Inject
    PastebinSettings settings;

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

    /** Whether going from {@code before} to {@code after} can take the paste off the list or list it for less long. */
    static boolean narrows(PasteRow before, PasteRow after) {
        if (before.isPrivate()) {
            return false; // not listed before: nothing to take off
        }
        if (after.isPrivate()) {
            return true;
        }
        Instant was = before.expiresAt();
        Instant will = after.expiresAt();
        return will != null && (was == null || will.isBefore(was));
    }

    /** Lists this version of a paste if it may be listed: public, unexpired, within the list's retention. */
    Uni<Void> show(PasteRow paste, Instant now) {
        int ttl = ttl(paste, now);
        if (!paste.listable(now) || ttl < 0) {
            return Uni.createFrom().voidItem();
        }
        int day = day(paste.createdAt());
        return registry.record(series, TimeSeries.GLOBAL, paste.createdAt()).chain(bucket -> {
            // The expiry row first, then the list row: the sweeper learns of every listed row that
            // expires, and a writer that dies between the two leaves nothing listed. Two idempotent
            // writes rather than a logged batch: a batch's log goes to two other nodes picked at
            // random, so for the ~17 s before a dead node is marked down every logged batch that picks
            // it times out (503), while these are retried and speculatively sent to live replicas.
            Uni<Void> expiry = paste.expiresAt() == null ? Uni.createFrom().voidItem()
                    : cql.write(EXPIRES, day(paste.expiresAt()), paste.expiresAt(), paste.id(), day, paste.createdAt(),
                            paste.version(), PasteRow.secondsUntil(paste.expiresAt(), now) + EXPIRY_ROW_GRACE_SECONDS,
                            paste.version()).replaceWithVoid();
            return expiry.chain(() -> cql.write(SHOW, day, paste.createdAt(), paste.id(), paste.title(), paste.expiresAt(),
                    ttl, paste.version()));
        }).replaceWithVoid();
    }

    /** Takes a paste off the list, as far as versions written at or before {@code timestamp} go. */
    Uni<Void> hide(PasteRow paste, long timestamp) {
        return hide(day(paste.createdAt()), paste.createdAt(), paste.id(), timestamp);
    }

    Uni<Void> hide(int day, Instant createdAt, UUID id, long timestamp) {
        return cql.write(HIDE, timestamp, day, createdAt, id).replaceWithVoid();
    }

    /**
     * Seconds the list row of this version lives: until the paste expires, and no longer than the
     * list keeps its day; -1 when its day is already past the list's retention.
     */
    private int ttl(PasteRow paste, Instant now) {
        Instant keepUntil = Granularity.DAY.end(day(paste.createdAt())).atZone(ZoneOffset.UTC)
                .plus(settings.listRetention()).toInstant();
        if (!now.isBefore(keepUntil)) {
            return -1;
        }
        int kept = PasteRow.secondsUntil(keepUntil, now);
        int expiry = paste.ttl(now);
        return expiry == 0 ? kept : Math.min(kept, expiry);
    }
}
