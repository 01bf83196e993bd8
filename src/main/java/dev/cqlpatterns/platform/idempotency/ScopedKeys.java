package dev.cqlpatterns.platform.idempotency;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import javax.crypto.Cipher;
import javax.crypto.Mac;
import javax.crypto.spec.GCMParameterSpec;
import javax.crypto.spec.SecretKeySpec;

/**
 * The keys derived from one raw Idempotency-Key in its scope (operation and caller): the row key of
 * idempotency_keys (a hash: the raw key is never stored), a key that seals the stored plan, and a
 * key that fingerprints the request.
 */
public record ScopedKeys(byte[] rowKey, byte[] sealKey, byte[] fingerprintKey) {
    private static final int IV_BYTES = 12;
    private static final SecureRandom RANDOM = new SecureRandom();

    public static ScopedKeys of(String operation, String caller, String key) {
        String scope = operation + "\n" + caller + "\n";
        byte[] raw = key.getBytes(StandardCharsets.US_ASCII);
        return new ScopedKeys(sha256(scope + key), hmac(raw, "seal\n" + scope), hmac(raw, "fingerprint\n" + scope));
    }

    /** The row key for a key in its scope, as stored. */
    public static byte[] rowKey(String operation, String caller, String key) {
        return sha256(operation + "\n" + caller + "\n" + key);
    }

    /** The HMAC of a request's JSON under this key: tells a retry from another request with the same key. */
    public byte[] fingerprint(byte[] request) {
        return hmac(fingerprintKey, request);
    }

    /** AES-GCM with a random IV (stored first); the row key is its associated data. */
    public byte[] seal(byte[] plan) {
        byte[] iv = new byte[IV_BYTES];
        RANDOM.nextBytes(iv);
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(Cipher.ENCRYPT_MODE, new SecretKeySpec(sealKey, "AES"), new GCMParameterSpec(128, iv));
            cipher.updateAAD(rowKey);
            byte[] sealed = cipher.doFinal(plan);
            byte[] out = new byte[IV_BYTES + sealed.length];
            System.arraycopy(iv, 0, out, 0, IV_BYTES);
            System.arraycopy(sealed, 0, out, IV_BYTES, sealed.length);
            return out;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    byte[] open(byte[] sealed) {
        try {
            Cipher cipher = Cipher.getInstance("AES/GCM/NoPadding");
            cipher.init(
                    Cipher.DECRYPT_MODE,
                    new SecretKeySpec(sealKey, "AES"),
                    new GCMParameterSpec(128, sealed, 0, IV_BYTES));
            cipher.updateAAD(rowKey);
            return cipher.doFinal(sealed, IV_BYTES, sealed.length - IV_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("The stored plan of an Idempotency-Key does not open", e);
        }
    }

    private static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** HMAC-SHA256: the derivation of a key from the raw key (HKDF's extract step) and the fingerprint. */
    private static byte[] hmac(byte[] key, String text) {
        return hmac(key, text.getBytes(StandardCharsets.UTF_8));
    }

    private static byte[] hmac(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
