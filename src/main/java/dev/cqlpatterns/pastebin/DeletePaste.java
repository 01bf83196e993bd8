package dev.cqlpatterns.pastebin;

import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.CompareAndSet.Step;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * DELETE /pastes/{id}: removes a paste, for the holder of the secret. Its list row goes first (a
 * deletion narrows who sees the paste, see {@link UpdatePaste}), then the paste row, by a
 * compare-and-set on the version that was checked, so a concurrent change is not resurrected into
 * the list (the loop is {@link CompareAndSet}; a delete whose outcome is unknown is learnt by a serial
 * read: the paste is gone). Partitions read: 2 (the paste, and the condition), 2 more per retry.
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@Path("/pastes/{id}")
@Tag(name = "pastebin")
public class DeletePaste {

    @Inject
    PasteRows pastes;

    @Inject
    PublicPasteList list;

    @Inject
    CompareAndSet cas;

    @DELETE
    @Operation(summary = "Delete a paste", description = "Needs the secret given when the paste was created.")
    @APIResponse(responseCode = "204", description = "Deleted")
    @APIResponse(responseCode = "403", description = "X-Paste-Secret missing or wrong")
    @APIResponse(
            responseCode = "409",
            description = "Others changed the paste so often at this moment that it " + "could not be deleted; retry")
    public Uni<RestResponse<Void>> delete(
            @Parameter(ref = PasteParameters.ID) @PathParam("id") UUID id,
            @Parameter(ref = PasteParameters.SECRET) @HeaderParam(PasteSecrets.HEADER) String secret) {
        PasteSecrets.requireShape(secret);
        AtomicLong floor = new AtomicLong();
        return cas.<PasteRow.Seen, Void>run(
                        attempt -> pastes.seen(id, attempt.retry()),
                        seen -> {
                            PasteRow before = seen.paste().requireSecret(secret);
                            long version = before.nextVersion(floor.get());
                            floor.set(version);
                            Uni<Void> unlist =
                                    before.isPrivate() ? Uni.createFrom().voidItem() : list.hide(before, version - 1);
                            return Step.write(
                                    PasteRows.TABLE,
                                    unlist.chain(() -> pastes.deleteIfVersion(id, before.version())),
                                    // Gone (ours or another delete: the same outcome), or still there.
                                    () -> pastes.readLive(id, seen.now(), true)
                                            .replaceWith(false)
                                            .onFailure(ProblemException.class)
                                            .recoverWithItem(true),
                                    () -> Uni.createFrom().voidItem());
                        },
                        () -> ProblemException.conflict("The paste is being changed by others at this moment; retry"))
                .replaceWith(RestResponse.noContent());
    }
}
