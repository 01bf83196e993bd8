package dev.cqlpatterns.platform.identity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.smallrye.jwt.auth.principal.DefaultJWTCallerPrincipalFactory;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTCallerPrincipal;
import io.smallrye.jwt.auth.principal.JWTCallerPrincipalFactory;
import io.smallrye.jwt.auth.principal.ParseException;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.interfaces.RSAPublicKey;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A token is checked by SmallRye JWT once, then taken as that exact string only while every
 * time-bound check would still pass; a token that failed is checked every time.
 */
class VerifiedTokensTest {
    private static final KeyPair KEYS = keys();
    private static final String ISSUER = "cql-patterns";

    /** SmallRye JWT's own checks, counted. */
    private final class Counting extends JWTCallerPrincipalFactory {
        final JWTCallerPrincipalFactory checks = new DefaultJWTCallerPrincipalFactory();
        int calls;

        @Override
        public JWTCallerPrincipal parse(String token, JWTAuthContextInfo info) throws ParseException {
            calls++;
            return checks.parse(token, info);
        }
    }

    private Instant now;
    private Counting verifier;
    private VerifiedTokens tokens;
    private JWTAuthContextInfo info;

    @BeforeEach
    void setUp() {
        now = Instant.now();
        verifier = new Counting();
        Clock clock = new Clock() {
            @Override
            public Instant instant() {
                return now;
            }

            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }
        };
        tokens = new VerifiedTokens(verifier, clock, 100, Duration.ofMinutes(1));
        info = new JWTAuthContextInfo((RSAPublicKey) KEYS.getPublic(), ISSUER);
    }

    private static JwtClaimsBuilder claims(String subject) {
        return Jwt.issuer(ISSUER).subject(subject).issuedAt(Instant.now()).expiresIn(Duration.ofMinutes(10));
    }

    private static String sign(JwtClaimsBuilder claims) {
        return claims.sign(KEYS.getPrivate());
    }

    @Test
    void should_check_a_token_once_and_take_it_again_within_the_reuse_period() throws ParseException {
        String token = sign(claims("alice"));
        assertThat(tokens.parse(token, info).getSubject()).isEqualTo("alice");
        now = now.plusSeconds(59);
        assertThat(tokens.parse(token, info).getSubject()).isEqualTo("alice");
        assertThat(tokens.parse(token, info).getSubject()).isEqualTo("alice");
        assertThat(verifier.calls).isEqualTo(1);
    }

    @Test
    void should_check_a_token_again_after_the_reuse_period() throws ParseException {
        assertCheckedAgainAfter(sign(claims("alice")), 61);
    }

    @Test
    void should_not_take_a_token_past_its_exp_without_checking_it() throws ParseException {
        assertCheckedAgainAfter(
                sign(Jwt.issuer(ISSUER).subject("alice").issuedAt(Instant.now()).expiresIn(Duration.ofSeconds(20))),
                21);
    }

    @Test
    void should_not_take_a_token_past_its_age_limit_without_checking_it() throws ParseException {
        info.setTokenAge(30L);
        assertCheckedAgainAfter(sign(claims("alice")), 31);
    }

    /** Taken once, then, {@code seconds} later, checked again by SmallRye JWT. */
    private void assertCheckedAgainAfter(String token, long seconds) throws ParseException {
        tokens.parse(token, info);
        now = now.plusSeconds(seconds);
        assertThat(tokens.remembers(token)).isFalse();
        tokens.parse(token, info);
        assertThat(verifier.calls).isEqualTo(2);
    }

    @Test
    void should_check_a_token_that_failed_every_time() {
        String good = sign(claims("alice"));
        // The same header and claims with another signature: not the string that passed.
        String other = sign(claims("mallory"));
        String forged = good.substring(0, good.lastIndexOf('.')) + other.substring(other.lastIndexOf('.'));
        assertThatThrownBy(() -> tokens.parse(forged, info)).isInstanceOf(ParseException.class);
        assertThatThrownBy(() -> tokens.parse(forged, info)).isInstanceOf(ParseException.class);
        assertThat(verifier.calls).isEqualTo(2);
        assertThat(tokens.remembers(forged)).isFalse();
    }

    @Test
    void should_check_an_oversized_token_every_time() throws ParseException {
        String token = sign(claims("alice").claim("padding", "x".repeat(VerifiedTokens.MAX_TOKEN_CHARS)));
        tokens.parse(token, info);
        tokens.parse(token, info);
        assertThat(verifier.calls).isEqualTo(2);
    }

    private static KeyPair keys() {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048);
            return generator.generateKeyPair();
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
