package dev.cqlpatterns.users;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.CompareAndSet.Step;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.users.EmailClaims.Claim;
import dev.cqlpatterns.users.EmailClaims.Held;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;
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
    CompareAndSet cas;

    /** The tables conditional writes go to, as CompareAndSet names them. */
    static final String USERS = "users_by_username";

    static final String EMAILS = "users_by_email";

    private volatile CompletionStage<UserDao> dao;

    /**
     * Runs one DAO call, counted as {@link UserDao#READS}: the mapper makes the statement's text, so
     * its cost is declared with the DAO rather than derived from the text as a Query's is.
     */
    public <T> Uni<T> call(Function<UserDao, CompletionStage<T>> call) {
        return dao().chain(d -> cql.call(UserDao.READS, () -> call.apply(d)));
    }

    /** The user, or null; one partition read. */
    public Uni<UserRow> find(String username) {
        return call(d -> d.byUsername(username, UnaryOperator.identity()));
    }

    /** The user as of every write acknowledged so far (a serial read), or null; one partition. */
    Uni<UserRow> findLatest(String username) {
        return call(d -> d.byUsername(username, cql.serially()));
    }

    /** The email's claim as of every write acknowledged so far (a serial read), or null; one partition. */
    Uni<EmailRow> findEmailLatest(String email) {
        return call(d -> d.byEmail(email, cql.serially()));
    }

    /**
     * Applies {@code change} to the newest state of the user and writes it if nobody changed the
     * user meanwhile (IF version = ?), by {@link CompareAndSet}: a lost race reads and applies again,
     * an unknown outcome is learnt by a serial read; then refreshes the email copy. 404 if there is
     * no such user, 409 after too many lost races. When {@code change} answers the row it was given,
     * nothing is written (the copy is still refreshed, which heals it).
     */
    Uni<UserRow> change(String username, UnaryOperator<UserRow> change) {
        return cas.<UserRow, UserRow>run(
                        attempt -> findLatest(username),
                        current -> {
                            if (current == null) {
                                return Step.done(
                                        Uni.createFrom().failure(ProblemException.notFound("No user " + username)));
                            }
                            UserRow next = change.apply(current);
                            if (next == current) {
                                return Step.done(Uni.createFrom().item(current));
                            }
                            return Step.write(
                                    USERS,
                                    updateIfVersion(next, current),
                                    () -> holds(next),
                                    () -> Uni.createFrom().item(next));
                        },
                        () -> concurrently(username))
                .call(this::refreshCopy);
    }

    /** The conditional write of the next version of a user (IF version = the one read). */
    Uni<AsyncResultSet> updateIfVersion(UserRow next, UserRow current) {
        return call(d -> d.updateIfVersion(next, current.versionOrZero()));
    }

    /** Whether {@code proposed} is the state of the user that holds now (a serial read). */
    Uni<Boolean> holds(UserRow proposed) {
        return findLatest(proposed.username()).map(proposed::sameAs);
    }

    static ProblemException concurrently(String username) {
        return ProblemException.conflict("User " + username + " is being changed concurrently; retry");
    }

    /**
     * Claims the username for a new {@code user} (INSERT ... IF NOT EXISTS). True when this request
     * claimed it: the row holds its signup_id, however the outcome was learnt (applied, or found by
     * a serial read after "not applied" or an unknown outcome). False when an earlier sign-up with
     * the same email and age holds it: a retry of a sign-up that got no answer, or a double submit.
     * 409 when another sign-up holds it.
     */
    Uni<Boolean> claimUsername(UserRow user) {
        return cas.<UserRow, Boolean>run(
                // First presume it free (no read); after a lost claim, read what holds.
                attempt -> attempt.retry()
                        ? findLatest(user.username())
                        : Uni.createFrom().nullItem(),
                held -> {
                    if (held == null) {
                        return Step.write(
                                USERS,
                                call(d -> d.claimUsername(user)),
                                () -> findLatest(user.username()).map(user::signedUpBy),
                                () -> Uni.createFrom().item(true));
                    }
                    if (user.signedUpBy(held)) {
                        return Step.done(Uni.createFrom().item(true));
                    }
                    if (user.sameSignUp(held)) {
                        return Step.done(Uni.createFrom().item(false));
                    }
                    return Step.done(Uni.createFrom()
                            .failure(ProblemException.conflict("Username " + user.username() + " is taken")));
                },
                () -> concurrently(user.username()));
    }

    /**
     * Claims {@code copy.email()} for its user, as of {@code copy.version()}: INSERT ... IF NOT EXISTS
     * with a copy of the user. When the user holds it already (an earlier attempt of theirs) the claim
     * is raised to that version if it is older (UPDATE ... IF username = ? AND version < ?), so that
     * nobody takes it over as stale while this move is on (see ChangeEmail). When another user holds
     * it by a stale claim (they are on another email and have changed since they claimed it), it is
     * released (IF username = ? AND version < ?) and claimed. 409 when another user holds it otherwise.
     */
    Uni<Void> claimEmail(EmailRow copy) {
        String email = copy.email();
        long version = copy.version();
        return cas.<Held, Void>run(
                // First presume it free (no read); after a lost claim, what holds (its answer, or a serial read).
                attempt -> (attempt.lost() != null
                                ? Uni.createFrom().item(Claim.of(attempt.lost().one()))
                                : attempt.retry()
                                        ? findEmailLatest(email).map(Claim::of)
                                        : Uni.createFrom().<Claim>nullItem())
                        .chain(claim -> claim == null || claim.username().equals(copy.username())
                                ? Uni.createFrom().item(new Held(claim, null))
                                : findLatest(claim.username()).map(holder -> new Held(claim, holder))),
                held -> {
                    Supplier<Uni<Boolean>> ours = () -> findEmailLatest(email)
                            .map(row -> row != null
                                    && copy.username().equals(row.username())
                                    && row.version() != null
                                    && row.version() >= version);
                    Supplier<Uni<Void>> done = () -> Uni.createFrom().voidItem();
                    if (held.claim() == null) {
                        return Step.write(EMAILS, call(d -> d.claimEmail(copy)), ours, done);
                    }
                    if (held.claim().username().equals(copy.username())) {
                        return held.claim().version() >= version
                                ? Step.done(done.get())
                                : Step.write(
                                        EMAILS,
                                        call(d -> d.refreshCopy(copy, copy.username(), version + 1)),
                                        ours,
                                        done);
                    }
                    if (held.stale(email)) {
                        return Step.write(
                                EMAILS,
                                releaseEmail(
                                                email,
                                                held.claim().username(),
                                                held.holder().versionOrZero())
                                        .chain(() -> call(d -> d.claimEmail(copy))),
                                ours,
                                done);
                    }
                    return Step.done(
                            Uni.createFrom().failure(ProblemException.conflict("Email " + email + " is taken")));
                },
                () -> concurrently(copy.username()));
    }

    /**
     * Releases an email, only if {@code owner} still holds it by a claim made before their version
     * {@code leftAt} (DELETE ... IF username = ? AND version < ?): {@code leftAt} is a version of the
     * owner that is not on this email, and any move of theirs back to it claims it at a version
     * at least that, so it is never released from under them. An unknown outcome is done when no
     * such claim is left.
     */
    Uni<Void> releaseEmail(String email, String owner, long leftAt) {
        return cas.conditional(
                        EMAILS,
                        call(d -> d.releaseEmail(email, owner, leftAt)),
                        () -> findEmailLatest(email)
                                .map(row -> row == null
                                        || !owner.equals(row.username())
                                        || row.version() == null
                                        || row.version() >= leftAt))
                .replaceWithVoid();
    }

    /**
     * Finishes a move: releases the email the user was moved off (if any is pending) and clears
     * previous_email (IF version = ?: a later change of the user keeps what it wrote; a leftover
     * previous_email whose claim is gone is harmless, its release no longer applies). The user
     * without previous_email.
     */
    Uni<UserRow> settle(UserRow user) {
        if (user.previousEmail() == null) {
            return Uni.createFrom().item(user);
        }
        UserRow settled = user.settled();
        return releaseEmail(user.previousEmail(), user.username(), user.versionOrZero())
                .chain(() -> cas.conditional(
                        USERS,
                        call(d -> d.updateIfVersion(settled, user.versionOrZero())),
                        () -> findLatest(user.username())
                                .map(row -> row == null
                                        || row.versionOrZero() != user.versionOrZero()
                                        || row.previousEmail() == null)))
                .replaceWith(settled);
    }

    /**
     * Brings the users_by_email copy up to {@code user}'s version. Not applied when the email was
     * released meanwhile or a newer copy is there already, which is what we want in both cases; an
     * unknown outcome is learnt by a serial read of the copy.
     */
    Uni<Void> refreshCopy(UserRow user) {
        return cas.conditional(
                        EMAILS,
                        call(d -> d.refreshCopy(user.emailCopy(), user.username(), user.versionOrZero())),
                        () -> findEmailLatest(user.email())
                                .map(row -> row == null
                                        || !user.username().equals(row.username())
                                        || row.version() != null && row.version() >= user.versionOrZero()))
                .replaceWithVoid();
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
