package dev.cqlpatterns.testsupport;

import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.Base64;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/** Mints bearer tokens for tests, signed with a key pair made once per test JVM. */
public final class Tokens {
    public static final String ISSUER = "cql-patterns";
    public static final String AUDIENCE = "cql-patterns";
    private static final KeyPair KEYS = generate();
    /** How long a user's token is handed out again before a new one is signed (they expire after 30 minutes). */
    private static final Duration REUSE = Duration.ofMinutes(10);

    private static final Map<String, Minted> MINTED = new ConcurrentHashMap<>();
    private static Path publicKeyFile;

    private Tokens() {}

    /**
     * A valid token whose subject is {@code username}: the same one for up to {@link #REUSE}, since
     * signing is RSA (3 % of the test JVM's CPU samples, signed per request, in GroupListsAgedTest).
     */
    public static String bearer(String username) {
        long now = System.nanoTime();
        return MINTED.compute(
                        username,
                        (user, minted) -> minted != null && now - minted.at() < REUSE.toNanos()
                                ? minted
                                : new Minted(
                                        signed(Jwt.issuer(ISSUER)
                                                .audience(AUDIENCE)
                                                .subject(user)
                                                .expiresIn(Duration.ofMinutes(30))),
                                        now))
                .token();
    }

    private record Minted(String token, long at) {}

    /** A bearer token with whatever claims a test needs, signed with the service's test key. */
    public static String signed(JwtClaimsBuilder claims) {
        return "Bearer " + claims.sign(KEYS.getPrivate());
    }

    public static synchronized Path publicKeyFile() {
        if (publicKeyFile == null) {
            try {
                Path dir = CassandraTestResource.root().resolve("target/test-jwt");
                Files.createDirectories(dir);
                publicKeyFile = dir.resolve("publicKey.pem");
                String pem = "-----BEGIN PUBLIC KEY-----\n"
                        + Base64.getMimeEncoder(64, "\n".getBytes())
                                .encodeToString(KEYS.getPublic().getEncoded())
                        + "\n-----END PUBLIC KEY-----\n";
                Files.writeString(publicKeyFile, pem);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return publicKeyFile;
    }

    private static KeyPair generate() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
