package dev.cqlpatterns.songs;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Caller;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** PUT /songs/{artist}/{album}/{song}/tags/{tag}: the owner adds one tag to the set (and to songs_by_tag). */
@IfBuildProperty(name = FunctionGroup.Property.SONGS, stringValue = "true", enableIfMissing = true)
@Path("/songs/{artist}/{album}/{song}/tags/{tag}")
@Tag(name = "songs")
public class AddTag {

    @Inject
    SongStore store;

    @Inject
    Caller caller;

    @PUT
    @Authenticated
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Tag a song (its owner only)",
            description =
                    "Only the song's owner adds tags, so nobody else can fill its tag cap; anyone else gets 403 and "
                            + "nothing changes.")
    @APIResponse(
            responseCode = "200",
            description = "The song with its tags",
            content = @Content(schema = @Schema(implementation = Song.class)))
    @APIResponse(responseCode = "403", description = "The song belongs to another user")
    @APIResponse(
            responseCode = "409",
            description = "The song carries the maximum number of tags, or is being changed concurrently")
    public Uni<Song> add(
            @BeanParam SongPath path,
            @Parameter(
                            description = "Tag; stored trimmed and lower case",
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
                    current.add(normalized);
                    return current;
                })
                .map(SongStore.Changed::song);
    }
}
