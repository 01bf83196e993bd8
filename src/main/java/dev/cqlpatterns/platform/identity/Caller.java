package dev.cqlpatterns.platform.identity;

import dev.cqlpatterns.platform.errors.ProblemException;
import io.quarkus.security.UnauthorizedException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Optional;
import java.util.regex.Pattern;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Who is calling: the subject ({@code sub}) of the verified bearer JWT, which must be a username.
 * Never {@code upn} or {@code preferred_username}, which the principal's name would prefer: a token
 * whose {@code sub} is alice acts as alice whatever else it claims. Issuer, audience, signature,
 * lifetime and age are checked by SmallRye JWT (application.properties) before this runs.
 */
@ApplicationScoped
public class Caller {
    private static final Pattern USERNAME = Pattern.compile(Usernames.PATTERN);

    @Inject
    SecurityIdentity identity;

    /** The caller's username; call it at the start of a handler, on the request's thread. */
    public String username() {
        if (identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken)) {
            throw new UnauthorizedException();
        }
        // A correctly signed token for no valid user: nobody, not a 500 and not a new author.
        return usernameOf(identity)
                .orElseThrow(() -> new UnauthorizedException("The token's subject is not a username"));
    }

    /** The username an identity stands for: a verified token's subject that is a username, or none. */
    public static Optional<String> usernameOf(SecurityIdentity identity) {
        if (identity == null || identity.isAnonymous() || !(identity.getPrincipal() instanceof JsonWebToken token)) {
            return Optional.empty();
        }
        String subject = token.getSubject();
        return subject != null && USERNAME.matcher(subject).matches() ? Optional.of(subject) : Optional.empty();
    }

    /** Only the user themselves may change what is theirs. */
    public String requireSelf(String username) {
        String me = username();
        if (!me.equals(username)) {
            throw ProblemException.forbidden("Only " + username + " may change this");
        }
        return me;
    }
}
