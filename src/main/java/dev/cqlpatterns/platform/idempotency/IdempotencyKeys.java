package dev.cqlpatterns.platform.idempotency;

import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.cassandra.Ttl;
import dev.cqlpatterns.platform.errors.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The Idempotency-Key of every create (table idempotency_keys): one mechanism for the whole API.
 *
 * <p>A create plans first (the new resource's id, its write timestamps, anything its answer needs),
 * claims the key with that plan (LWT, with a TTL), then runs its writes, every one idempotent, and
 * marks the key completed. A retry with the same key and the same request gets the stored plan
 * back and, unless it was completed, runs the same writes again: a create that died half way (a
 * 503 at the batch log, a crash) is finished under the same id, and both answers are the same. The
 * same key with another request is a 409. Keys are scoped per operation and per caller.
 *
 * <p>Nothing a reader of the table could use is stored: the row key is a SHA-256 of the scope and
 * the raw key, the plan (which may hold a paste's secret) is AES-GCM encrypted under a key derived
 * from the raw key, and the fingerprint is an HMAC under another derived key. So a key must be hard
 * to guess (a random UUID): whoever holds it can replay the answer, secret included.
 *
 * <p>The claim goes through {@link CompareAndSet}: an unknown outcome (CAS timeout, "result is
 * unknown", driver timeout) or a "not applied" answer is settled by reading the key row at SERIAL,
 * which finishes any Paxos round in flight: the row holding our own sealed plan is our claim,
 * another is a lost claim; absent, the claim is sent once more.
 */
@ApplicationScoped
public class IdempotencyKeys {
    public static final String HEADER = "Idempotency-Key";
    /** Response header set to true on an answer replayed for a key seen before. */
    public static final String REPLAYED_HEADER = "Idempotent-Replayed";

    private static final Query CLAIM = Cql.conditional("INSERT INTO idempotency_keys (key_hash, fingerprint, plan, "
            + "expires_at) VALUES (?, ?, ?, ?) IF NOT EXISTS USING TTL ?");
    private static final Query READ =
            Cql.idempotent("SELECT fingerprint, plan, expires_at, completed FROM idempotency_keys WHERE key_hash = ?");
    private static final Query COMPLETE =
            Cql.idempotent("UPDATE idempotency_keys USING TTL ? SET completed = true WHERE key_hash = ?");

    /** The table of the claims, as CompareAndSet names it. */
    static final String TABLE = "idempotency_keys";

    @Inject
    Cql cql;

    @Inject
    CompareAndSet cas;

    @Inject
    Clock clock;

    @Inject
    ObjectMapper json;

    @Inject
    IdempotencySettings settings;

    /**
     * What a create ran: its plan (the first attempt's, on a replay) and whether this answer
     * replays one given before for the same key.
     */
    public record Done<P>(P plan, boolean replayed) {
        /** The response, marked Idempotent-Replayed: true when it replays an earlier one. */
        public <T> RestResponse<T> respond(RestResponse.ResponseBuilder<T> response) {
            return replayed ? response.header(REPLAYED_HEADER, "true").build() : response.build();
        }
    }

    /**
     * Runs a create under {@code key} (null: no key, the writes just run once).
     *
     * @param operation names the create, e.g. "POST /pastes" or "POST /conversations/{id}/messages id";
     *                  with the caller, the scope of the key
     * @param caller    the caller's username, "" for anonymous creates
     * @param request   the request as the create understood it (validated, normalized): its JSON is
     *                  the fingerprint
     * @param plan      the plan of a first attempt: ids and anything the answer needs
     * @param writes    the create's writes for a plan, all idempotent; its second argument is true
     *                  when the plan is an earlier attempt's (which may have written some or all)
     */
    public <P> Uni<Done<P>> run(
            String operation,
            String caller,
            String key,
            Object request,
            Class<P> type,
            Supplier<P> plan,
            BiFunction<P, Boolean, Uni<Void>> writes) {
        if (key == null) {
            P planned = plan.get();
            return writes.apply(planned, false).map(ignored -> new Done<>(planned, false));
        }
        ScopedKeys keys = ScopedKeys.of(operation, caller, key);
        byte[] fingerprint = keys.fingerprint(bytes(request));
        P planned = plan.get();
        byte[] sealed = keys.seal(bytes(planned));
        Instant expiresAt = clock.instant().plus(settings.ttl()).truncatedTo(ChronoUnit.MILLIS);
        return claim(keys, fingerprint, sealed, expiresAt, true).chain(found -> {
            if (found == null) {
                return finish(keys, planned, false, expiresAt, writes);
            }
            if (!MessageDigest.isEqual(fingerprint, bytes(found, "fingerprint"))) {
                throw ProblemException.conflict(
                        HEADER + " " + key + " was used before for a different request to " + operation);
            }
            byte[] stored = bytes(found, "plan");
            // Our own claim, seen through a SERIAL read after an unknown outcome: not a replay.
            boolean ours = Arrays.equals(stored, sealed);
            P earlier = ours ? planned : parse(keys.open(stored), type);
            if (found.getBoolean("completed")) {
                return Uni.createFrom().item(new Done<>(earlier, !ours));
            }
            Instant until = found.getInstant("expires_at");
            return finish(keys, earlier, !ours, until == null ? expiresAt : until, writes);
        });
    }

    private <P> Uni<Done<P>> finish(
            ScopedKeys keys, P plan, boolean replayed, Instant expiresAt, BiFunction<P, Boolean, Uni<Void>> writes) {
        return writes.apply(plan, replayed)
                .chain(() -> cql.write(COMPLETE, secondsUntil(expiresAt), ByteBuffer.wrap(keys.rowKey())))
                .map(ignored -> new Done<>(plan, replayed));
    }

    /**
     * Claims the key: null when this call claimed it, else the row that holds it. Through
     * {@link CompareAndSet}: a "not applied" or an unknown outcome is settled by a SERIAL read, and
     * the row holding this attempt's own sealed plan (fresh random IV: unique to the attempt) is its
     * own claim; no row after an unknown outcome is claimed again, once.
     */
    private Uni<Row> claim(ScopedKeys keys, byte[] fingerprint, byte[] sealed, Instant expiresAt, boolean firstTry) {
        ByteBuffer rowKey = ByteBuffer.wrap(keys.rowKey());
        AtomicReference<Row> held = new AtomicReference<>();
        return cas.conditional(
                        TABLE,
                        cql.write(
                                CLAIM,
                                rowKey,
                                ByteBuffer.wrap(fingerprint),
                                ByteBuffer.wrap(sealed),
                                expiresAt,
                                secondsUntil(expiresAt)),
                        () -> cql.read(READ, cql.serially(), rowKey).map(rs -> {
                            held.set(rs.one());
                            return held.get() != null && Arrays.equals(bytes(held.get(), "plan"), sealed);
                        }))
                .chain(outcome -> {
                    if (outcome.applied()) {
                        return Uni.createFrom().nullItem();
                    }
                    Row holder = outcome.answer() != null ? outcome.answer().one() : held.get();
                    if (holder != null) {
                        return Uni.createFrom().item(holder);
                    }
                    // Not claimed, and a SERIAL read settled any round in flight: claim again, once.
                    return firstTry
                            ? claim(keys, fingerprint, sealed, expiresAt, false)
                            : Uni.createFrom()
                                    .failure(new DriverTimeoutException(
                                            "An Idempotency-Key claim stayed unknown twice"));
                });
    }

    private int secondsUntil(Instant at) {
        return Ttl.until(at, clock.instant());
    }

    private byte[] bytes(Object value) {
        try {
            return json.writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private <P> P parse(byte[] plan, Class<P> type) {
        try {
            return json.readValue(plan, type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] bytes(Row row, String column) {
        ByteBuffer buffer = row.getByteBuffer(column);
        byte[] bytes = new byte[buffer == null ? 0 : buffer.remaining()];
        if (buffer != null) {
            buffer.duplicate().get(bytes);
        }
        return bytes;
    }

    /**
     * An id of one request under its key, the same for every retry with that key (a fresh one without
     * a key): what a create's own conditional claims elsewhere are keyed by, so that a retry finds its
     * first attempt's claim. Derived like the row key, so it tells nothing of the raw key.
     */
    public static java.util.UUID requestId(String operation, String caller, String key) {
        return key == null
                ? java.util.UUID.randomUUID()
                : java.util.UUID.nameUUIDFromBytes(ScopedKeys.rowKey("request id\n" + operation, caller, key));
    }
}
