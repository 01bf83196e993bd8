package dev.cqlpatterns.users;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import dev.cqlpatterns.platform.errors.ProblemException;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /users?email=: the same user as GET /users/{username}, answered from its copy in
 * users_by_email: one partition read, no second lookup by username.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/users")
@Tag(name = "users")
public class FindUserByEmail {

    @Inject
    UserStore store;

    @GET
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The user holding an email (one partition read)")
    @APIResponse(responseCode = "200", description = "The user", content = @Content(schema = @Schema(implementation = User.class)))
    @APIResponse(responseCode = "404", description = "No user has this email",
            content = @Content(mediaType = "application/problem+json", schema = @Schema(ref = "Problem")))
    public Uni<User> find(
            @Parameter(description = "Email address; matched case-insensitively", example = "alice@example.com")
            @QueryParam("email") @NotNull @Size(max = UserRules.EMAIL_MAX)
            @Pattern(regexp = UserRules.EMAIL, message = UserRules.EMAIL_MESSAGE) String email) {
        String normalized = UserRules.normalizeEmail(email);
        return store.call(1, d -> d.byEmail(normalized)).map(row -> {
            if (row == null) {
                throw ProblemException.notFound("No user has the email " + normalized);
            }
            return User.of(row.asUser());
        });
    }
}
