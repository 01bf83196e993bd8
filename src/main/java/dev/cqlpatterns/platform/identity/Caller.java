package dev.cqlpatterns.platform.identity;

import dev.cqlpatterns.platform.errors.ProblemException;
import io.quarkus.security.identity.SecurityIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** Who is calling: the subject of the verified bearer JWT, which is a username. */
@ApplicationScoped
public class Caller {

    @Inject
    SecurityIdentity identity;

    /** The caller's username; call it at the start of a handler, on the request's thread. */
    public String username() {
        if (identity.isAnonymous()) {
            throw new io.quarkus.security.UnauthorizedException();
        }
        return identity.getPrincipal().getName();
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
