package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** GET /conversations/{id}: the current members (the recipients set of seed 000, cql/SEEDS.md) and title. One partition. */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations/{id}")
@Tag(name = "messenger")
@Authenticated
public class GetConversation {

    @Inject
    Caller caller;

    @Inject
    Conversations conversations;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "A conversation's current members and title (members only; 404 for anyone else)")
    public Uni<Conversations.View> get(@Parameter(ref = ConversationParameters.ID) @PathParam("id") UUID id) {
        String me = caller.username();
        return conversations.requireMember(id, me).map(Conversations.Conversation::view);
    }
}
