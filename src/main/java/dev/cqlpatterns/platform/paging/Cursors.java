package dev.cqlpatterns.platform.paging;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cqlpatterns.platform.errors.ProblemException;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.validation.Validator;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.jboss.logging.Logger;

/**
 * Opaque, tamper-evident paging cursors. A cursor is the JSON of a feature's own position record
 * (last clustering key, bucket, driver paging state...), signed with HMAC-SHA256 over the scope it
 * was made for. A cursor altered, truncated, or reused with another query is a 400.
 *
 * <p>The scope names the query and its parameters (e.g. {@code "history:" + conversationId}), so a
 * cursor from one conversation cannot page through another.
 */
@ApplicationScoped
public class Cursors {
    private static final Logger LOG = Logger.getLogger(Cursors.class);
    /**
     * The longest cursor taken, and made. The longest position a list writes (songs by tag: three names
     * that together fit a request line of 4 KiB, as PUT /songs takes them) makes about 1,900 characters.
     */
    public static final int MAX_LENGTH = 2048;
    /** What a cursor looks like: the position's JSON and its 16-byte MAC, each as unpadded base64url. */
    public static final String PATTERN = "^[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]{22}$";

    private static final int MAC_BYTES = 16;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    @Inject
    PagingSettings settings;

    @Inject
    ObjectMapper json;

    @Inject
    Validator validator;

    private SecretKeySpec key;

    @PostConstruct
    void init() {
        byte[] secret = settings.cursorSecret()
                .filter(s -> !s.isBlank())
                .map(s -> s.getBytes(StandardCharsets.UTF_8))
                .orElseGet(() -> {
                    LOG.warn("cql-patterns.paging.cursor-secret is not set: cursors are signed with a random key "
                            + "and work only on this process");
                    byte[] random = new byte[32];
                    new SecureRandom().nextBytes(random);
                    return random;
                });
        key = new SecretKeySpec(secret, "HmacSHA256");
    }

    /** The limit to use: the default when absent, 400 when outside 1..max. */
    public int limit(Integer requested) {
        if (requested == null) {
            return settings.defaultLimit();
        }
        if (requested < 1 || requested > settings.maxLimit()) {
            throw ProblemException.invalid("limit", "must be between 1 and " + settings.maxLimit());
        }
        return requested;
    }

    public String encode(String scope, Object position) {
        try {
            byte[] payload = json.writeValueAsBytes(position);
            String cursor = ENCODER.encodeToString(payload) + "." + ENCODER.encodeToString(mac(scope, payload));
            if (cursor.length() > MAX_LENGTH) {
                // A page must never hand out a cursor that the next request is refused for.
                throw new IllegalStateException("a cursor of " + cursor.length() + " characters for " + scope);
            }
            return cursor;
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cursor position is not serializable", e);
        }
    }

    /** The position a cursor holds, empty when no cursor was given. */
    public <T> Optional<T> decode(String scope, String cursor, Class<T> type) {
        if (cursor == null || cursor.isEmpty()) {
            return Optional.empty();
        }
        if (cursor.length() > MAX_LENGTH) {
            throw ProblemException.badCursor("cursor is too long");
        }
        int dot = cursor.indexOf('.');
        if (dot <= 0 || dot == cursor.length() - 1) {
            throw ProblemException.badCursor(
                    "cursor is malformed; pass back the 'next' value of a previous page unchanged");
        }
        try {
            byte[] payload = DECODER.decode(cursor.substring(0, dot));
            byte[] mac = DECODER.decode(cursor.substring(dot + 1));
            if (!MessageDigest.isEqual(mac, mac(scope, payload))) {
                throw ProblemException.badCursor("cursor does not belong to this list or was altered");
            }
            T position = json.readerFor(type)
                    .with(DeserializationFeature.FAIL_ON_MISSING_CREATOR_PROPERTIES)
                    .readValue(payload);
            // Signed is not sound: a leaked key or a bug can sign what no page wrote, and a null or a
            // malformed key column reaching Cassandra was a 500. Positions declare what they need.
            if (position == null || !validator.validate(position).isEmpty()) {
                throw ProblemException.badCursor("cursor holds no position of this list");
            }
            return Optional.of(position);
        } catch (IllegalArgumentException | java.io.IOException e) {
            throw ProblemException.badCursor(
                    "cursor is malformed; pass back the 'next' value of a previous page unchanged");
        }
    }

    private byte[] mac(String scope, byte[] payload) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            mac.update(scope.getBytes(StandardCharsets.UTF_8));
            mac.update((byte) 0);
            byte[] full = mac.doFinal(payload);
            return java.util.Arrays.copyOf(full, MAC_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
