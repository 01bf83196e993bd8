package dev.cqlpatterns.users;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.NewResource;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.PositiveOrZero;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.hibernate.validator.constraints.CodePointLength;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * POST /users: the caller creates their user. Usernames and emails are both unique, each claimed
 * with INSERT ... IF NOT EXISTS: first the username in users_by_username, then the email in
 * users_by_email. When the email is taken, the username claim is undone (DELETE ... IF email = ?,
 * so only our own claim goes), and nothing half-created stays behind. Between the two claims (a
 * few milliseconds) the user can be read by username; a process that dies right there leaves a
 * user without an email claim, which a repeat of the sign-up (or PUT /users/{username}/email with
 * the same email) repairs.
 *
 * <p>A sign-up is safe to repeat: both claims go through {@link dev.cqlpatterns.platform.cassandra.CompareAndSet},
 * so a claim whose outcome is unknown (a CAS timeout) or answered "not applied" is learnt by a
 * serial read instead of answering 503 or 409. Each request claims with its own signup_id (a
 * timeuuid, users_by_username.signup_id): the request whose signup_id the row holds answers 201, however
 * it learnt the outcome. A username already held by an earlier sign-up with the same email and age
 * (a retry after a lost answer, or a double submit) is taken as done: 200 with the user as it is.
 * A different sign-up of a held name gets 409.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/users")
@Tag(name = "users")
public class CreateUser {

    @Inject
    UserStore store;

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @Schema(name = "NewUser")
    public record NewUser(
            @NotNull
            @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE)
            @Schema(description = "Must be the caller's own username (the token's subject)", examples = "alice")
            String username,

            @NotNull
            @CodePointLength(max = UserRules.EMAIL_MAX)
            @Pattern(regexp = UserRules.EMAIL, message = UserRules.EMAIL_MESSAGE)
            @Schema(description = "Stored lower case", examples = "Alice@Example.com", maxLength = UserRules.EMAIL_MAX)
            String email,

            @PositiveOrZero @Max(150) @Schema(nullable = true, examples = "34")
            Integer age) {}

    @POST
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create the caller's user, claiming a unique username and a unique email")
    @APIResponse(
            responseCode = "201",
            description = "Created",
            headers =
                    @Header(
                            name = "Location",
                            description = "Path of the new user, /users/{username}",
                            schema =
                                    @Schema(
                                            type = SchemaType.STRING,
                                            format = "uri-reference",
                                            pattern = "^/users/[a-z0-9_.-]{3,32}$",
                                            maxLength = 39)),
            content = @Content(schema = @Schema(implementation = User.class)))
    @APIResponse(
            responseCode = "200",
            description = "The same sign-up (same username, email and age) was made "
                    + "before, e.g. a retry after a lost answer or after a 503 whose sign-up had taken effect, or a double "
                    + "submit: the user as it is",
            content = @Content(schema = @Schema(implementation = User.class)))
    @APIResponse(responseCode = "403", description = "The username is not the caller's")
    @APIResponse(responseCode = "409", description = "The username is taken by another sign-up, or the email is taken")
    public Uni<RestResponse<User>> create(@Valid @NotNull NewUser request) {
        caller.requireSelf(request.username());
        UserRow user = new UserRow(
                request.username(),
                UserRules.normalizeEmail(request.email()),
                null,
                request.age(),
                Map.of(),
                0L,
                TimeUuids.at(clock.instant()));
        return store.claimUsername(user)
                .chain(created -> store.claimEmail(user.emailCopy())
                        // Only the call that claimed the username undoes it: when the email is taken (409), the
                        // username claim goes; when Cassandra failed (503), whatever may have been claimed goes,
                        // as far as it lets us. A repeat of a sign-up keeps what the first one made.
                        .onFailure()
                        .call(failure -> !created
                                ? Uni.createFrom().voidItem()
                                : failure instanceof ProblemException
                                        ? store.call(d -> d.releaseUsername(user.username(), user.email()))
                                                .replaceWithVoid()
                                        : undo(user))
                        .chain(() -> created
                                ? Uni.createFrom()
                                        .item(NewResource.<User>at("/users/" + user.username())
                                                .entity(User.of(user))
                                                .build())
                                // The same sign-up again: the user as it is now.
                                : store.findLatest(user.username()).map(now -> {
                                    if (now == null) {
                                        // The sign-up we repeated gave up meanwhile (its email was taken).
                                        throw ProblemException.conflict("Username " + user.username()
                                                + " is being signed up concurrently; retry");
                                    }
                                    return RestResponse.ok(User.of(now));
                                })));
    }

    /** Best effort: release the email if it became ours (at whatever version), then the username. */
    private Uni<Void> undo(UserRow user) {
        return store.releaseEmail(user.email(), user.username(), Long.MAX_VALUE)
                .chain(() -> store.call(d -> d.releaseUsername(user.username(), user.email())))
                .replaceWithVoid()
                .onFailure()
                .recoverWithNull();
    }
}
