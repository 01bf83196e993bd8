package dev.cqlpatterns.users;

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
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * PUT /users/{username}/addresses/{kind}: sets one entry of the user's
 * {@code map<text, frozen<address>>}, then refreshes the users_by_email copy (see UserStore.change).
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/users/{username}/addresses/{kind}")
@Tag(name = "users")
public class SetAddress {

    @Inject
    UserStore store;

    @Inject
    UsersSettings settings;

    @Inject
    Caller caller;

    @PUT
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set one of the caller's addresses (residential, business, ...)")
    @APIResponse(
            responseCode = "200",
            description = "The user with their addresses",
            content = @Content(schema = @Schema(implementation = User.class)))
    @APIResponse(responseCode = "403", description = "The user is not the caller")
    @APIResponse(
            responseCode = "409",
            description = "The user already has the maximum number of addresses, or is being changed concurrently")
    public Uni<User> set(
            @Parameter(ref = ApiDefinition.CALLER)
                    @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE)
                    @PathParam("username")
                    String username,
            @Parameter(description = "Kind of address", example = "residential")
                    @PathParam("kind")
                    @Pattern(regexp = UserRules.KIND, message = UserRules.KIND_MESSAGE)
                    String kind,
            @Valid @NotNull Address address) {
        caller.requireSelf(username);
        return store.change(username, user -> {
                    if (!user.addressesOrEmpty().containsKey(kind)
                            && user.addressesOrEmpty().size() >= settings.maxAddresses()) {
                        throw ProblemException.conflict(
                                "A user keeps at most " + settings.maxAddresses() + " addresses");
                    }
                    return user.withAddress(kind, address);
                })
                .map(User::of);
    }
}
