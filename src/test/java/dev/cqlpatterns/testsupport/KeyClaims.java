package dev.cqlpatterns.testsupport;

import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cqlpatterns.platform.idempotency.ScopedKeys;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Rows of idempotency_keys as tests need them: the claim a create that died right after claiming
 * its key leaves behind, and the stored row of a key, to look at what it holds.
 */
@ApplicationScoped
public class KeyClaims {

    @Inject
    StoredRows rows;

    /** The service's own mapper: a fingerprint is of the request's JSON as the service writes it. */
    @Inject
    ObjectMapper json;

    /** Writes the claim of a first attempt that stopped after claiming its key, before any other write. */
    public void leftBy(String operation, String caller, String key, Object request, Object plan) {
        ScopedKeys keys = ScopedKeys.of(operation, caller, key);
        rows.execute(
                "INSERT INTO idempotency_keys (key_hash, fingerprint, plan, expires_at) VALUES (?, ?, ?, ?) "
                        + "USING TTL 3600",
                ByteBuffer.wrap(keys.rowKey()),
                ByteBuffer.wrap(keys.fingerprint(bytes(request))),
                ByteBuffer.wrap(keys.seal(bytes(plan))),
                Instant.now().plusSeconds(3600));
    }

    /** The stored row of a key, if any. */
    public Optional<Row> row(String operation, String caller, String key) {
        List<Row> found = rows.execute(
                "SELECT key_hash, fingerprint, plan, expires_at, completed FROM idempotency_keys "
                        + "WHERE key_hash = ?",
                ByteBuffer.wrap(ScopedKeys.rowKey(operation, caller, key)));
        return found.stream().findFirst();
    }

    private byte[] bytes(Object value) {
        try {
            return json.writeValueAsBytes(value);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
