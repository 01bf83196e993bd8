package dev.cqlpatterns.songs;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Caller;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/** DELETE /songs/{artist}/{album}/{song}/tags/{tag}: the owner removes one tag from the set (and from songs_by_tag). */
@IfBuildProperty(name = FunctionGroup.Property.SONGS, stringValue = "true", enableIfMissing = true)
@Path("/songs/{artist}/{album}/{song}/tags/{tag}")
@Tag(name = "songs")
public class RemoveTag {

    @Inject
    SongStore store;

    @Inject
    Caller caller;

    @DELETE
    @Authenticated
    @Operation(
            summary = "Remove a tag from a song (its owner only)",
            description = "Only the song's owner removes tags; anyone else gets 403 and nothing changes.")
    @APIResponse(responseCode = "204", description = "Removed (or the song did not carry it)")
    @APIResponse(responseCode = "403", description = "The song belongs to another user")
    @APIResponse(responseCode = "409", description = "The song is being changed concurrently; retry")
    public Uni<RestResponse<Void>> remove(
            @BeanParam SongPath path,
            @Parameter(
                            description = "Tag",
                            example = "trumpet",
                            schema =
                                    @Schema(
                                            type = SchemaType.STRING,
                                            maxLength = SongRules.TAG_MAX,
                                            pattern = Text.SINGLE_LINE_NOT_BLANK))
                    @PathParam("tag")
                    String tag) {
        String me = caller.username();
        String normalized = SongRules.tag("tag", tag);
        return store.change(path.key(), me, false, current -> {
                    current.remove(normalized);
                    return current;
                })
                .map(changed -> RestResponse.noContent());
    }
}
