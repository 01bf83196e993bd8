package dev.cqlpatterns.users;

import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.CompareAndSet.Step;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.openapi.ApiDefinition;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.concurrent.atomic.AtomicBoolean;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.hibernate.validator.constraints.CodePointLength;

/**
 * PUT /users/{username}/email: moves the user to another email, in an order that never leaves the
 * user without a claimed email and never lets two users hold one:
 * <ol>
 * <li>claim the new email in users_by_email (INSERT ... IF NOT EXISTS, with a copy of the user as of
 * the version read): of two users claiming one address, one wins and the other gets 409;</li>
 * <li>point the user at it and record the email left in previous_email, in one UPDATE
 * users_by_username ... IF version = ? (a lost race re-reads and tries again, keeping the claim);</li>
 * <li>refresh the copy, release the old email (DELETE ... IF username = ? AND version < ?), clear
 * previous_email (IF version = ?, so a later change is not undone).</li>
 * </ol>
 * Steps 1 and 2 go through {@link CompareAndSet}: a conditional write whose outcome is unknown (a
 * CAS timeout) is learnt by a serial read. If Cassandra fails (503) before step 2 took effect, the
 * new claim is released. If it fails after, the user is on the new email and previous_email says
 * which claim is left: the client's retry (the same PUT, which finds the user on that email) releases
 * it and clears previous_email. Until then nothing answers the left claim: GET /users?email= checks
 * the user row, and another sign-up or move to that address takes it over.
 *
 * <p>Stale claim or move in progress? A row of users_by_email naming a user who is on another email
 * is either left over by a move off it, or claimed by a move to it whose step 2 has not yet applied.
 * previous_email cannot tell them apart: a user moving back to an address still pending release has
 * previous_email = that address and a live claim. The claim's version can: step 1 claims (or, when the
 * user holds the address already, raises the claim) at the user's version that step 2 writes over, so
 * a claim older than the user's version belongs to no move that can still apply (versions only grow,
 * and step 2 needs the user still at the claim's version). So every release is DELETE ... IF username
 * = owner AND version < v, with v a version of the owner that is not on that email: the owner's own
 * step 3 and retry use the version that moved them off; a sign-up or move of someone else uses the
 * owner's version it has just read (serial) with another email, releases only if the claim is older,
 * then claims the address; else 409. A move back to the address claims it at a version no such
 * release can match, before or after the release: before, the release does not apply; after, the
 * move finds the address free (or taken by the other caller: 409).
 *
 * <p>Known limit: a move that fails before step 2 releases its claim whatever its version, so two
 * concurrent moves of one user to one address, one of them failing, may leave the other without a
 * claim.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/users/{username}/email")
@Tag(name = "users")
public class ChangeEmail {

    @Inject
    UserStore store;

    @Inject
    CompareAndSet cas;

    @Inject
    Caller caller;

    @Schema(name = "NewEmail")
    public record NewEmail(
            @NotNull
            @CodePointLength(max = UserRules.EMAIL_MAX)
            @Pattern(regexp = UserRules.EMAIL, message = UserRules.EMAIL_MESSAGE)
            @Schema(description = "Stored lower case", examples = "alice@example.org", maxLength = UserRules.EMAIL_MAX)
            String email) {}

    @PUT
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Move the caller to another email: claim the new one, then release the old one")
    @APIResponse(
            responseCode = "200",
            description = "The user with the new email",
            content = @Content(schema = @Schema(implementation = User.class)))
    @APIResponse(responseCode = "403", description = "The user is not the caller")
    @APIResponse(responseCode = "409", description = "The email is taken, or the user is being changed concurrently")
    public Uni<User> change(
            @Parameter(ref = ApiDefinition.CALLER)
                    @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE)
                    @PathParam("username")
                    String username,
            @Valid @NotNull NewEmail request) {
        caller.requireSelf(username);
        String email = UserRules.normalizeEmail(request.email());
        // Set once the new email is ours: from then on a failure lets go of it (unless the user moved).
        AtomicBoolean claimed = new AtomicBoolean();
        return cas.<UserRow, UserRow>run(
                        attempt -> store.findLatest(username),
                        current -> {
                            if (current == null) {
                                return Step.done(
                                        Uni.createFrom().failure(ProblemException.notFound("No user " + username)));
                            }
                            EmailRow claim = new EmailRow(
                                    email, username, current.age(), current.addresses(), current.versionOrZero());
                            // Re-asserting the current email also repairs a claim lost to a crash during creation.
                            Uni<Void> claiming = store.claimEmail(claim).invoke(() -> claimed.set(true));
                            if (email.equals(current.email())) {
                                // The same move again (the client's retry after a 503): finish the release a failed
                                // step 3 left, if any.
                                return Step.done(claiming.chain(() -> store.settle(current)));
                            }
                            UserRow next = current.withEmail(email);
                            return Step.write(
                                    UserStore.USERS,
                                    claiming.chain(() -> store.updateIfVersion(next, current)),
                                    () -> store.holds(next),
                                    () -> moved(current, next));
                        },
                        () -> UserStore.concurrently(username))
                // Cassandra failed (503) or too many lost races (409): do not keep an email the user
                // may not have moved to.
                .onFailure(failure -> claimed.get())
                .call(failure ->
                        releaseUnlessCurrent(username, email).onFailure().recoverWithNull())
                .map(User::of);
    }

    /** Step 3: the copy, then the email left (and one an earlier move left pending, unless moved back to it). */
    private Uni<UserRow> moved(UserRow before, UserRow after) {
        String earlier = before.previousEmail();
        return store.refreshCopy(after)
                .chain(() -> earlier == null || earlier.equals(after.email())
                        ? Uni.createFrom().voidItem()
                        : store.releaseEmail(earlier, after.username(), after.versionOrZero()))
                .chain(() -> store.settle(after));
    }

    /** Lets go of a claimed email unless the user ended up on it anyway. */
    private Uni<Void> releaseUnlessCurrent(String username, String email) {
        return store.findLatest(username)
                .chain(latest -> latest != null && email.equals(latest.email())
                        ? Uni.createFrom().voidItem()
                        // The claim was made at the latest version at most.
                        : store.releaseEmail(
                                email, username, latest == null ? Long.MAX_VALUE : latest.versionOrZero() + 1));
    }
}
