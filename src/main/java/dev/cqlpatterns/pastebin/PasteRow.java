package dev.cqlpatterns.pastebin;

import dev.cqlpatterns.platform.cassandra.Ttl;
import dev.cqlpatterns.platform.errors.ProblemException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;

/**
 * One row of pastes_by_id, as PasteRows reads and writes it.
 *
 * @param version write timestamp (microseconds) of the paste's latest version, strictly
 *                increasing; the list is written with it as USING TIMESTAMP
 */
record PasteRow(
        UUID id,
        String title,
        String body,
        boolean isPrivate,
        byte[] secretHash,
        Instant createdAt,
        Instant modifiedAt,
        Instant expiresAt,
        long version) {

    /** The paste a change's attempt starts from, and the moment it was read at (PasteRows.seen). */
    record Seen(PasteRow paste, Instant now) {}

    /** 403 unless {@code secret} is this paste's secret (compared in constant time). */
    PasteRow requireSecret(String secret) {
        if (!PasteSecrets.matches(secret, secretHash)) {
            throw ProblemException.forbidden("X-Paste-Secret is missing or is not this paste's secret");
        }
        return this;
    }

    boolean expired(Instant now) {
        return expired(expiresAt, now);
    }

    /** Whether a paste expiring at {@code expiresAt} (null: never) is gone at {@code now}. */
    static boolean expired(Instant expiresAt, Instant now) {
        return expiresAt != null && !now.isBefore(expiresAt);
    }

    /** Whether GET /pastes may show this version: public and not expired. */
    boolean listable(Instant now) {
        return !isPrivate && !expired(now);
    }

    /** Seconds a row of this version lives from {@code now}: its TTL, 0 (none) when it never expires. */
    int ttl(Instant now) {
        return expiresAt == null ? 0 : Ttl.until(expiresAt, now);
    }

    Paste view() {
        return new Paste(id, title, body, isPrivate, createdAt, modifiedAt, expiresAt);
    }

    /**
     * The version a change of this paste gets: after this one and after {@code floor} (a version
     * an earlier attempt of the same change used), else the wall clock in microseconds. Two apart
     * so a change can delete the list row at {@code version - 1} before writing it at
     * {@code version}. Wall clock, not the service's Clock: versions order writes.
     */
    long nextVersion(long floor) {
        return Math.max(Math.max(microsNow(), version + 2), floor + 2);
    }

    static long microsNow() {
        Instant now = Instant.now();
        return ChronoUnit.MICROS.between(Instant.EPOCH, now);
    }

    /** Instants as Cassandra's timestamp keeps them, so what a response shows is what is stored. */
    static Instant millis(Instant at) {
        return at.truncatedTo(ChronoUnit.MILLIS);
    }
}
