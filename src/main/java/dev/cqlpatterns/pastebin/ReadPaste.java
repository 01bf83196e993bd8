package dev.cqlpatterns.pastebin;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /pastes/{id}: one paste, public or private (the id is the capability), without its secret.
 * One partition of pastes_by_id. Expired pastes are 404 as soon as their expires_at passes on the
 * service's clock, before the TTL removes the row.
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@Path("/pastes/{id}")
@Tag(name = "pastebin")
public class ReadPaste {

    @Inject
    PasteRows pastes;

    @Inject
    Clock clock;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Read a paste",
            description =
                    "Private pastes too: whoever has the id may read it. " + "Unknown and expired pastes are 404.")
    public Uni<Paste> read(@Parameter(ref = PasteParameters.ID) @PathParam("id") UUID id) {
        return pastes.readLive(id, clock.instant(), false).map(PasteRow::view);
    }
}
