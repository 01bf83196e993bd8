package dev.cqlpatterns.users;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.openapi.ApiDefinition;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * DELETE /users/{username}/addresses/{kind}: removes one entry of the addresses map (a no-op when
 * absent), then refreshes the users_by_email copy (see UserStore.change).
 */
@IfBuildProperty(name = FunctionGroup.Property.PEOPLE, stringValue = "true", enableIfMissing = true)
@Path("/users/{username}/addresses/{kind}")
@Tag(name = "users")
public class RemoveAddress {

    @Inject
    UserStore store;

    @Inject
    Caller caller;

    @DELETE
    @Authenticated
    @Operation(summary = "Remove one of the caller's addresses")
    @APIResponse(responseCode = "204", description = "Removed (or there was none of that kind)")
    @APIResponse(responseCode = "403", description = "The user is not the caller")
    @APIResponse(responseCode = "409", description = "The user is being changed concurrently; retry")
    public Uni<RestResponse<Void>> remove(
            @Parameter(ref = ApiDefinition.CALLER)
                    @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE)
                    @PathParam("username")
                    String username,
            @Parameter(description = "Kind of address", example = "business")
                    @PathParam("kind")
                    @Pattern(regexp = UserRules.KIND, message = UserRules.KIND_MESSAGE)
                    String kind) {
        caller.requireSelf(username);
        return store.change(username, user -> user.withoutAddress(kind)).map(user -> RestResponse.noContent());
    }
}
