package dev.cqlpatterns.pastebin;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The secret that lets its holder change or delete a paste: 32 random bytes, shown once as
 * base64url. Only its SHA-256 is stored; 256 random bits need no salt or slow hash, since nobody
 * can guess them back from the hash.
 */
final class PasteSecrets {
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private PasteSecrets() {
    }

    static String newSecret() {
        byte[] bytes = new byte[32];
        RANDOM.nextBytes(bytes);
        return ENCODER.encodeToString(bytes);
    }

    static byte[] hash(String secret) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(secret.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Whether {@code given} is the secret behind {@code storedHash}, in time independent of where they differ. */
    static boolean matches(String given, byte[] storedHash) {
        return given != null && storedHash != null && MessageDigest.isEqual(hash(given), storedHash);
    }
}
