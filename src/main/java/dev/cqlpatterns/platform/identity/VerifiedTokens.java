package dev.cqlpatterns.platform.identity;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.smallrye.jwt.auth.principal.DefaultJWTCallerPrincipalFactory;
import io.smallrye.jwt.auth.principal.JWTAuthContextInfo;
import io.smallrye.jwt.auth.principal.JWTCallerPrincipal;
import io.smallrye.jwt.auth.principal.JWTCallerPrincipalFactory;
import io.smallrye.jwt.auth.principal.ParseException;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Alternative;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * SmallRye JWT's verification of bearer tokens, done once a minute per token instead of on every
 * request: checking an RS256 signature was a fifth of the service's CPU samples on an authenticated
 * list at 600 requests/s (JFR). A token is reused only as the exact string that passed every check
 * of SmallRye JWT (signature, issuer, audience, lifetime, age) and this class's own (an iat not
 * beyond the allowed clock skew in the future), and only while each time-bound
 * check would still pass without clock skew: until the earliest of its {@code exp}, {@code iat}
 * plus mp.jwt.verify.token.age, and {@code reuse} after it was verified. A token that fails is
 * never kept, so it is checked again every time. The map is bounded (max-entries; Caffeine picks
 * what leaves), and a token not in it is verified in full. The price: a
 * token whose signing key is withdrawn keeps passing for up to {@code reuse} where it was checked
 * (JWT_REUSE, README).
 */
@ApplicationScoped
@Alternative
@Priority(1)
public class VerifiedTokens extends JWTCallerPrincipalFactory {
    /** Longer tokens are verified every time: with max-entries this bounds the memory kept. */
    static final int MAX_TOKEN_CHARS = 4096;

    private final JWTCallerPrincipalFactory verifier;
    private final Clock clock;
    private final Duration reuse;
    private final Cache<String, Verified> verified;

    /** A principal that passed every check, and until when (epoch milliseconds) it may stand for its token. */
    record Verified(JWTCallerPrincipal principal, long until) {}

    @Inject
    VerifiedTokens(
            Clock clock,
            @ConfigProperty(name = "cql-patterns.identity.verified-tokens.max-entries") int maxEntries,
            @ConfigProperty(name = "cql-patterns.identity.verified-tokens.reuse") Duration reuse) {
        this(new DefaultJWTCallerPrincipalFactory(), clock, maxEntries, reuse);
    }

    VerifiedTokens(JWTCallerPrincipalFactory verifier, Clock clock, int maxEntries, Duration reuse) {
        this.verifier = verifier;
        this.clock = clock;
        this.reuse = reuse;
        // Entries leave after the reuse period at the latest; parse refuses one whose token expired sooner.
        this.verified = Caffeine.newBuilder()
                .maximumSize(maxEntries)
                .expireAfterWrite(reuse)
                .build();
    }

    @Override
    public JWTCallerPrincipal parse(String token, JWTAuthContextInfo info) throws ParseException {
        long now = clock.millis();
        JWTCallerPrincipal known = reusable(token, now);
        if (known != null) {
            return known;
        }
        JWTCallerPrincipal principal = verifier.parse(token, info);
        // SmallRye checks the age from iat, not whether iat is to come: a token "issued" an hour
        // ahead would pass the age check an hour longer than the age allows. Judged, as SmallRye
        // judges exp and the age, by the machine's clock, not the service's (which tests move).
        if (principal.getIssuedAtTime() * 1000 > System.currentTimeMillis() + info.getClockSkew() * 1000L) {
            throw new ParseException("The token's iat is in the future beyond the allowed clock skew");
        }
        long until = Math.min(now + reuse.toMillis(), principal.getExpirationTime() * 1000);
        if (info.getTokenAge() != null) {
            until = Math.min(until, (principal.getIssuedAtTime() + info.getTokenAge()) * 1000);
        }
        if (token.length() <= MAX_TOKEN_CHARS && until > now) {
            verified.put(token, new Verified(principal, until));
        }
        return principal;
    }

    /** Whether {@code token} would be taken without checking it again now. */
    public boolean remembers(String token) {
        return reusable(token, clock.millis()) != null;
    }

    /** The principal {@code token} stands for at {@code now} without a check, or null. */
    private JWTCallerPrincipal reusable(String token, long now) {
        Verified known = verified.getIfPresent(token);
        // The map's own expiry runs on its ticker; the service's clock decides.
        return known != null && now < known.until() ? known.principal() : null;
    }
}
