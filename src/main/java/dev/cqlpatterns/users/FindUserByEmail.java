package dev.cqlpatterns.users;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.function.UnaryOperator;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.hibernate.validator.constraints.CodePointLength;

/**
 * GET /users?email=: the caller's own user, found by their email: the claim in users_by_email, then
 * the user row it names (two partition reads, one after the other).
 *
 * <p>Why the user row too: a claim naming the caller is not enough. A move whose last step failed
 * (see ChangeEmail) leaves the old address's row naming the user until it is released, with a copy
 * that looks current (its version and email say nothing of a later move). Only the user row says
 * which email the user is on, so the answer comes from it, and it is 404 when the user is on
 * another email. An email nobody holds or someone else holds is still answered after the one read
 * of its claim.
 *
 * <p>It answers only for the caller's own email. An email held by someone else gets the very
 * answer of an email nobody holds (404, same detail, same one partition read), so the route is no
 * oracle for which addresses have an account, and it never shows another user's private fields.
 * (Answering the same for taken and free emails by always saying "not found" would make the route
 * useless; answering others with the username alone would still tell whether an address is
 * registered, and tie it to a name.)
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/users")
@Tag(name = "users")
public class FindUserByEmail {

    @Inject
    UserStore store;

    @Inject
    Caller caller;

    @GET
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "The caller's own user, found by their email (two partition reads: the email, then the user)",
            description = "Answers only when the email is the caller's own. An email held by another user is answered "
                    + "exactly like an email nobody holds (404), so this lookup tells nobody which addresses have an "
                    + "account, and shows no other user's private fields.")
    @APIResponse(
            responseCode = "200",
            description = "The caller's user, with every field",
            content = @Content(schema = @Schema(implementation = User.class)))
    @APIResponse(
            responseCode = "404",
            description = "The caller holds no such email (whether or not someone else does)")
    public Uni<User> find(
            @Parameter(
                            description = "Email address; matched case-insensitively",
                            example = "alice@example.com",
                            schema = @Schema(type = SchemaType.STRING, maxLength = UserRules.EMAIL_MAX))
                    @QueryParam("email")
                    @NotNull
                    @CodePointLength(max = UserRules.EMAIL_MAX)
                    @Pattern(regexp = UserRules.EMAIL, message = UserRules.EMAIL_MESSAGE)
                    String email) {
        String me = caller.username();
        String normalized = UserRules.normalizeEmail(email);
        return store.call(d -> d.byEmail(normalized, UnaryOperator.identity())).chain(claim -> {
            // Someone else's email reads exactly like a free one: no enumeration oracle.
            if (claim == null || !me.equals(claim.username())) {
                throw notHeld(normalized);
            }
            return store.find(me).map(user -> {
                // A claim the caller was moved off: not theirs any more.
                if (user == null || !normalized.equals(user.email())) {
                    throw notHeld(normalized);
                }
                return User.of(user);
            });
        });
    }

    private static ProblemException notHeld(String email) {
        return ProblemException.notFound("You hold no email " + email);
    }
}
