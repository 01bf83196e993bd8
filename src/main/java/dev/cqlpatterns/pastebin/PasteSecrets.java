package dev.cqlpatterns.pastebin;

import dev.cqlpatterns.platform.errors.ProblemException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.regex.Pattern;

/**
 * The secret that lets its holder change or delete a paste: 32 random bytes, shown once as
 * base64url. Only its SHA-256 is stored; 256 random bits need no salt or slow hash, since nobody
 * can guess them back from the hash.
 */
final class PasteSecrets {
    static final String HEADER = "X-Paste-Secret";
    /** What a secret looks like: 32 bytes as unpadded base64url. */
    static final String PATTERN = "^[A-Za-z0-9_-]{43}$";

    private static final Pattern SHAPE = Pattern.compile(PATTERN);
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();

    private PasteSecrets() {}

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

    /**
     * 400 naming the header when a secret is given that no paste can have (any other length or
     * alphabet), before anything is read; a missing one is left to the paste's check (403).
     */
    static void requireShape(String given) {
        if (given != null && !SHAPE.matcher(given).matches()) {
            throw ProblemException.invalid(
                    HEADER, "must be the 43 characters of A-Z a-z 0-9 - _ that creating the paste answered");
        }
    }

    /** Whether {@code given} is the secret behind {@code storedHash}, in time independent of where they differ. */
    static boolean matches(String given, byte[] storedHash) {
        return given != null && storedHash != null && MessageDigest.isEqual(hash(given), storedHash);
    }
}
