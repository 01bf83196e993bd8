package dev.cqlpatterns.pastebin;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The pastes_by_id table: every statement on it, and the read every function that takes a paste id
 * starts with. Its rows are {@link PasteRow}s.
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class PasteRows {

    /** The table, as CompareAndSet names the conditional writes on it. */
    static final String TABLE = "pastes_by_id";

    private static final Query READ = Cql.idempotent("SELECT id, title, body, is_private, secret_hash, created_at, "
            + "modified_at, expires_at, version FROM pastes_by_id WHERE id = ?");
    // An UPDATE, not an INSERT ... IF NOT EXISTS: an INSERT also writes a row marker, which the
    // later UPDATEs of a changed expiry cannot give the new TTL, so the row would outlive the
    // paste. "IF version = null" is the same condition: no paste with this id yet.
    private static final Query CREATE = Cql.conditional("UPDATE pastes_by_id USING TTL ? SET title = ?, body = ?, "
            + "is_private = ?, secret_hash = ?, created_at = ?, modified_at = ?, expires_at = ?, version = ? "
            + "WHERE id = ? IF version = null");
    /** UpdatePaste: the next version, if the paste is still at the version read. */
    private static final Query REPLACE = Cql.conditional("UPDATE pastes_by_id USING TTL ? SET title = ?, body = ?, "
            + "is_private = ?, secret_hash = ?, created_at = ?, modified_at = ?, expires_at = ?, version = ? "
            + "WHERE id = ? IF version = ?");
    /** DeletePaste: the paste, if it is still at the version read. */
    private static final Query DELETE_IF_VERSION =
            Cql.conditional("DELETE FROM pastes_by_id WHERE id = ? IF version = ?");

    @Inject
    Cql cql;

    @Inject
    Clock clock;

    @Inject
    CompareAndSet cas;

    /**
     * The paste, 404 when there is none or it has expired at {@code now}. {@code serial} reads
     * through Paxos: after a lost compare-and-set, it sees the version that won.
     */
    Uni<PasteRow> readLive(UUID id, Instant now, boolean serial) {
        return cql.read(READ, b -> serial ? cql.serially().apply(b) : b, id)
                .map(rs -> Optional.ofNullable(rs.one())
                        .flatMap(PasteRows::of)
                        .filter(row -> !row.expired(now))
                        .orElseThrow(() -> ProblemException.notFound("No paste " + id)));
    }

    /**
     * The paste a change's attempt starts from (UpdatePaste, DeletePaste), and the moment it was
     * read at: a retry after a lost compare-and-set reads through Paxos ({@code serial}).
     */
    Uni<PasteRow.Seen> seen(UUID id, boolean serial) {
        Instant now = PasteRow.millis(clock.instant());
        return readLive(id, now, serial).map(paste -> new PasteRow.Seen(paste, now));
    }

    /**
     * Whether this proposed version is the one that holds now (a serial read): same version and
     * content. What tells a replace whose outcome is unknown whether it committed.
     */
    Uni<Boolean> holds(PasteRow proposed, Instant now) {
        return readLive(proposed.id(), now, true)
                .map(held -> held.version() == proposed.version()
                        && Objects.equals(held.title(), proposed.title())
                        && Objects.equals(held.body(), proposed.body())
                        && held.isPrivate() == proposed.isPrivate()
                        && Objects.equals(held.expiresAt(), proposed.expiresAt()))
                .onFailure(ProblemException.class)
                .recoverWithItem(false);
    }

    /**
     * Writes a new paste, if there is none with its id: true when the row at its version is there
     * after the write. A "not applied" answer or an unknown outcome (coordinators that timed out) is
     * settled by a serial read: the row at this version is this create's own, written by an earlier
     * run of the same plan (a retry, the driver's second coordinator).
     */
    Uni<Boolean> create(PasteRow paste, Instant now) {
        return bind(CREATE, paste, now, null)
                .chain(create ->
                        cas.conditional(TABLE, cql.execute(create), () -> atVersion(paste.id(), paste.version())))
                .map(CompareAndSet.Outcome::applied);
    }

    /** The compare-and-set of a change: Cassandra's answer, applied when {@code before} was still current. */
    Uni<AsyncResultSet> replace(PasteRow before, PasteRow after, Instant now) {
        return bind(REPLACE, after, now, before.version()).chain(statement -> cql.execute(statement));
    }

    /** The compare-and-set of a delete: Cassandra's answer, applied when the paste was still at {@code version}. */
    Uni<AsyncResultSet> deleteIfVersion(UUID id, long version) {
        return cql.bind(DELETE_IF_VERSION, id, version).chain(statement -> cql.execute(statement));
    }

    /** Whether the paste {@code id} is at {@code version}, read through Paxos: a create's own write, learnt later. */
    private Uni<Boolean> atVersion(UUID id, long version) {
        return cql.read(READ, cql.serially(), id).map(rs -> {
            Row row = rs.one();
            return row != null && !row.isNull("version") && row.getLong("version") == version;
        });
    }

    /** A create or replace of {@code paste}'s row; {@code ifVersion}: the version it replaces (null: a create). */
    private Uni<BoundStatement> bind(Query write, PasteRow paste, Instant now, Long ifVersion) {
        Object[] values = {
            paste.ttl(now),
            paste.title(),
            paste.body(),
            paste.isPrivate(),
            ByteBuffer.wrap(paste.secretHash()),
            paste.createdAt(),
            paste.modifiedAt(),
            paste.expiresAt(),
            paste.version(),
            paste.id(),
            ifVersion
        };
        return cql.bind(write, ifVersion == null ? Arrays.copyOf(values, values.length - 1) : values);
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
}
