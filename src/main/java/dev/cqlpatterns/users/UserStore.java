package dev.cqlpatterns.users;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.errors.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * Access to the users tables through the mapper's {@link UserDao}, and the one way a user is
 * changed: {@link #change}, an optimistic conditional write on the user's version followed by
 * a refresh of the users_by_email copy.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class UserStore {

    @Inject
    Cql cql;

    @Inject
    UsersSettings settings;

    private volatile CompletionStage<UserDao> dao;

    /**
     * Runs one DAO call that reads {@code partitions} partitions: 0 for a plain write, 1 for a
     * conditional one (its Paxos round reads the partition it writes, as elsewhere in the service).
     */
    public <T> Uni<T> call(int partitions, Function<UserDao, CompletionStage<T>> call) {
        return dao().chain(d -> cql.call(partitions, () -> call.apply(d)));
    }

    /** The user, or null; one partition read. */
    public Uni<UserRow> find(String username) {
        return call(1, d -> d.byUsername(username, UnaryOperator.identity()));
    }

    /** The user as of every write acknowledged so far (a serial read), or null; one partition. */
    Uni<UserRow> findLatest(String username) {
        return call(1, d -> d.byUsername(username, b -> b.setConsistencyLevel(cql.serial())));
    }

    /**
     * Applies {@code change} to the newest state of the user and writes it if nobody changed the
     * user meanwhile (IF version = ?), retrying on a lost race; then refreshes the email copy.
     * 404 if there is no such user, 409 after too many lost races. When {@code change} answers
     * the row it was given, nothing is written (the copy is still refreshed, which heals it).
     */
    Uni<UserRow> change(String username, UnaryOperator<UserRow> change) {
        return attempt(username, change, 1).call(this::refreshCopy);
    }

    private Uni<UserRow> attempt(String username, UnaryOperator<UserRow> change, int attempt) {
        return findLatest(username).chain(current -> {
            if (current == null) {
                return Uni.createFrom().failure(ProblemException.notFound("No user " + username));
            }
            UserRow next = change.apply(current);
            if (next == current) {
                return Uni.createFrom().item(current);
            }
            return call(1, d -> d.updateIfVersion(next, current.versionOrZero())).chain(rs -> {
                if (rs.wasApplied()) {
                    return Uni.createFrom().item(next);
                }
                if (attempt >= settings.maxAttempts()) {
                    return Uni.createFrom().failure(ProblemException.conflict(
                            "User " + username + " is being changed concurrently; retry"));
                }
                return attempt(username, change, attempt + 1);
            });
        });
    }

    /**
     * Brings the users_by_email copy up to {@code user}'s version. Not applied when the email was
     * released meanwhile or a newer copy is there already, which is what we want in both cases.
     */
    Uni<Void> refreshCopy(UserRow user) {
        return call(1, d -> d.refreshCopy(user.emailCopy(), user.username(), user.versionOrZero())).replaceWithVoid();
    }

    private Uni<UserDao> dao() {
        CompletionStage<UserDao> stage = dao;
        if (stage != null) {
            return Cql.resume(stage);
        }
        return cql.session().chain(session -> {
            CompletionStage<UserDao> created = dao;
            if (created == null) {
                created = new UsersMapperBuilder(session).build().userDao(cql.keyspace());
                dao = created;
                // A failure (node down while preparing) must not stick: the next call tries again.
                created.whenComplete((ok, failure) -> {
                    if (failure != null) {
                        dao = null;
                    }
                });
            }
            return Cql.resume(created);
        });
    }
}
