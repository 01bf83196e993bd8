package dev.cqlpatterns.pastebin;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.cassandra.Ttl;
import dev.cqlpatterns.platform.errors.ProblemException;
import io.smallrye.mutiny.Uni;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Optional;
import java.util.UUID;

/**
 * One row of pastes_by_id (see cql/030_pastebin.cql), every statement on that table, and the read
 * every function that takes a paste id starts with.
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

    /** The table, as CompareAndSet names the conditional writes on it. */
    static final String TABLE = "pastes_by_id";

    private static final Query READ = Cql.idempotent("SELECT id, title, body, is_private, secret_hash, created_at, "
            + "modified_at, expires_at, version FROM pastes_by_id WHERE id = ?");
    // An UPDATE, not an INSERT ... IF NOT EXISTS: an INSERT also writes a row marker, which the
    // later UPDATEs of a changed expiry cannot give the new TTL, so the row would outlive the
    // paste. "IF version = null" is the same condition: no paste with this id yet.
    static final Query CREATE = Cql.conditional("UPDATE pastes_by_id USING TTL ? SET title = ?, body = ?, "
            + "is_private = ?, secret_hash = ?, created_at = ?, modified_at = ?, expires_at = ?, version = ? "
            + "WHERE id = ? IF version = null");
    /** UpdatePaste: the next version, if the paste is still at the version read. */
    static final Query REPLACE = Cql.conditional("UPDATE pastes_by_id USING TTL ? SET title = ?, body = ?, "
            + "is_private = ?, secret_hash = ?, created_at = ?, modified_at = ?, expires_at = ?, version = ? "
            + "WHERE id = ? IF version = ?");
    /** DeletePaste: the paste, if it is still at the version read. */
    static final Query DELETE_IF_VERSION = Cql.conditional("DELETE FROM pastes_by_id WHERE id = ? IF version = ?");

    /**
     * The paste, 404 when there is none or it has expired at {@code now}. {@code serial} reads
     * through Paxos: after a lost compare-and-set, it sees the version that won.
     */
    static Uni<PasteRow> readLive(Cql cql, UUID id, Instant now, boolean serial) {
        return cql.read(READ, b -> serial ? cql.serially().apply(b) : b, id)
                .map(rs -> Optional.ofNullable(rs.one())
                        .flatMap(PasteRow::of)
                        .filter(row -> !row.expired(now))
                        .orElseThrow(() -> ProblemException.notFound("No paste " + id)));
    }

    /** Whether the paste {@code id} is at {@code version}, read through Paxos: a create's own write, learnt after the fact. */
    static Uni<Boolean> atVersion(Cql cql, UUID id, long version) {
        return cql.read(READ, cql.serially(), id).map(rs -> {
            Row row = rs.one();
            return row != null && !row.isNull("version") && row.getLong("version") == version;
        });
    }

    /**
     * The paste a change's attempt starts from (UpdatePaste, DeletePaste), and the moment it was
     * read at: a retry after a lost compare-and-set reads through Paxos ({@code serial}).
     */
    record Seen(PasteRow paste, Instant now) {
        static Uni<Seen> read(Cql cql, Clock clock, UUID id, boolean serial) {
            Instant now = millis(clock.instant());
            return readLive(cql, id, now, serial).map(paste -> new Seen(paste, now));
        }
    }

    /**
     * Whether this proposed version is the one that holds now (a serial read): same version and
     * content. What tells a replace whose outcome is unknown whether it committed.
     */
    Uni<Boolean> holds(Cql cql, Instant now) {
        return readLive(cql, id, now, true)
                .map(held -> held.version() == version
                        && java.util.Objects.equals(held.title(), title)
                        && java.util.Objects.equals(held.body(), body)
                        && held.isPrivate() == isPrivate
                        && java.util.Objects.equals(held.expiresAt(), expiresAt))
                .onFailure(ProblemException.class)
                .recoverWithItem(false);
    }

    /** 403 unless {@code secret} is this paste's secret (compared in constant time). */
    PasteRow requireSecret(String secret) {
        if (!PasteSecrets.matches(secret, secretHash)) {
            throw ProblemException.forbidden("X-Paste-Secret is missing or is not this paste's secret");
        }
        return this;
    }

    private static Optional<PasteRow> of(Row row) {
        // An expired version cell means an expired paste, whatever else might be left of the row.
        if (row.isNull("version") || row.isNull("created_at")) {
            return Optional.empty();
        }
        ByteBuffer hash = row.getByteBuffer("secret_hash");
        byte[] secretHash = null;
        if (hash != null) {
            secretHash = new byte[hash.remaining()];
            hash.duplicate().get(secretHash);
        }
        return Optional.of(new PasteRow(
                row.getUuid("id"),
                row.getString("title"),
                row.getString("body"),
                row.getBoolean("is_private"),
                secretHash,
                row.getInstant("created_at"),
                row.getInstant("modified_at"),
                row.getInstant("expires_at"),
                row.getLong("version")));
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
