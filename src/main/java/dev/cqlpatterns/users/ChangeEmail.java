package dev.cqlpatterns.users;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.CompareAndSet.Step;
import java.util.concurrent.atomic.AtomicBoolean;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * PUT /users/{username}/email: moves the user to another email, in an order that never leaves the
 * user without a claimed email and never lets two users hold one:
 * <ol>
 * <li>claim the new email in users_by_email (INSERT ... IF NOT EXISTS, with a copy of the user):
 * of two users claiming one address, one wins and the other gets 409;</li>
 * <li>point the user at it (UPDATE users_by_username ... IF version = ?; a lost race re-reads and
 * tries again, keeping the claim);</li>
 * <li>refresh the copy if the user changed meanwhile, release the old email (DELETE ... IF
 * username = ?).</li>
 * </ol>
 * Steps 1 and 2 go through {@link CompareAndSet}: a lost race re-reads and tries again (keeping the
 * claim), and a conditional write whose outcome is unknown (a CAS timeout) is learnt by a serial
 * read, so a move that committed goes on to step 3 instead of answering 503. If Cassandra fails
 * (503) before step 2 took effect, the new claim is released; if it fails after (in step 3), the
 * user is on the new email and the old one stays claimed by them until released by hand (the
 * service keeps no record of the previous address).
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
            @NotNull @Size(max = UserRules.EMAIL_MAX) @Pattern(regexp = UserRules.EMAIL, message = UserRules.EMAIL_MESSAGE)
            @Schema(description = "Stored lower case", examples = "alice@example.org") String email) {
    }

    @PUT
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Move the caller to another email: claim the new one, then release the old one")
    @APIResponse(responseCode = "200", description = "The user with the new email", content = @Content(schema = @Schema(implementation = User.class)))
    @APIResponse(responseCode = "403", description = "The user is not the caller")
    @APIResponse(responseCode = "409", description = "The email is taken, or the user is being changed concurrently")
    public Uni<User> change(
            @Parameter(description = "Username; must be the caller", example = "alice")
            @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE) @PathParam("username") String username,
            @Valid @NotNull NewEmail request) {
        caller.requireSelf(username);
        String email = UserRules.normalizeEmail(request.email());
        // Set once the new email is ours: from then on a failure lets go of it (unless the user moved).
        AtomicBoolean claimed = new AtomicBoolean();
        return cas.<UserRow, UserRow>run(attempt -> store.findLatest(username), current -> {
            if (current == null) {
                return Step.done(Uni.createFrom().failure(ProblemException.notFound("No user " + username)));
            }
            EmailRow claim = new EmailRow(email, username, current.age(), current.addresses(), current.versionOrZero());
            // Re-asserting the current email also repairs a claim lost to a crash during creation.
            Uni<Void> claiming = store.claimEmail(claim).invoke(() -> claimed.set(true));
            if (email.equals(current.email())) {
                return Step.done(claiming.replaceWith(current));
            }
            UserRow next = current.withEmail(email);
            return Step.write(UserStore.USERS, claiming.chain(() -> store.updateIfVersion(next, current)),
                    () -> store.holds(next), () -> moved(current, next));
        }, () -> UserStore.concurrently(username))
                // Cassandra failed (503) or too many lost races (409): do not keep an email the user
                // may not have moved to.
                .onFailure(failure -> claimed.get()).call(failure -> releaseUnlessCurrent(username, email)
                        .onFailure().recoverWithNull())
                .map(User::of);
    }

    private Uni<UserRow> moved(UserRow before, UserRow after) {
        return store.refreshCopy(after)
                .chain(() -> store.releaseEmail(before.email(), before.username()))
                .replaceWith(after);
    }

    /** Lets go of a claimed email unless the user ended up on it anyway. */
    private Uni<Void> releaseUnlessCurrent(String username, String email) {
        return store.findLatest(username).chain(latest -> latest != null && email.equals(latest.email())
                ? Uni.createFrom().voidItem()
                : store.releaseEmail(email, username));
    }
}
