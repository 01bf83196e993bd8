package dev.cqlpatterns.users;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /users/{username}: the user with their addresses, one partition of users_by_username. Email,
 * age and addresses are private (see {@link User}): the user themselves gets them, anyone else the
 * username alone, from the same one-partition read.
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/users/{username}")
@Tag(name = "users")
public class GetUser {

    @Inject
    UserStore store;

    @Inject
    Caller caller;

    @GET
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "A user; their email, age and addresses only for themselves (one partition read)",
            description = "The username is public. Email, age and addresses are private: they are answered only when "
                    + "the caller is this user; anyone else gets the username alone.")
    public Uni<User> get(
            @Parameter(description = "Username", example = "alice")
                    @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE)
                    @PathParam("username")
                    String username) {
        String me = caller.username();
        return store.find(username).map(row -> {
            if (row == null) {
                throw ProblemException.notFound("No user " + username);
            }
            return User.seenBy(row, me);
        });
    }
}
