package dev.cqlpatterns.platform.identity;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Whether a username belongs to a signed-up user: one read of users_by_username, for a feature
 * deployed apart from the users feature (which owns the table and writes it with its object
 * mapper), so that such a feature needs none of the users feature's classes.
 */
@ApplicationScoped
public class SignedUpUsers {
    private static final Query EXISTS = Cql.idempotent("SELECT username FROM users_by_username WHERE username = ?");

    @Inject
    Cql cql;

    /** True when {@code username} signed up. One partition read. */
    public Uni<Boolean> exists(String username) {
        return cql.read(EXISTS, username).map(rs -> rs.one() != null);
    }
}
