package dev.cqlpatterns.songs;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Caller;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * PUT /songs/{artist}/{album}/{song}: creates the song, owned by the caller, or replaces its tags
 * (a set&lt;text&gt;) when the caller owns it; songs_by_tag follows (see SongStore).
 */
@IfBuildProperty(name = FunctionGroup.Property.SONGS, stringValue = "true", enableIfMissing = true)
@Path("/songs/{artist}/{album}/{song}")
@Tag(name = "songs")
public class PutSong {

    @Inject
    SongStore store;

    @Inject
    Caller caller;

    @Inject
    SongsSettings settings;

    @Schema(name = "SongTags")
    public record SongTags(
            @NotNull
            @Schema(
                    description = "The song's tags (at most 32); stored trimmed and lower case, duplicates once",
                    maxItems = 32,
                    type = SchemaType.ARRAY,
                    implementation = SongTag.class,
                    examples = "[\"jazz\", \"modal\"]")
            List<String> tags) {}

    /** The contract's schema of one tag (SongRules.tag checks it). */
    @Schema(
            name = "SongTag",
            type = SchemaType.STRING,
            pattern = Text.SINGLE_LINE_NOT_BLANK,
            maxLength = SongRules.TAG_MAX,
            description = "Not blank; at most 50 characters once trimmed, no control characters",
            examples = "jazz")
    static final class SongTag {
        private SongTag() {}
    }

    @PUT
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Create a song (the caller owns it) or replace its tags (its owner only)",
            description =
                    "The caller who creates a song owns it; only the owner replaces its tags, anyone else gets 403 "
                            + "and nothing changes. A song from before owners were recorded is claimed by its first change.")
    @APIResponse(
            responseCode = "200",
            description = "Tags replaced",
            content = @Content(schema = @Schema(implementation = Song.class)))
    @APIResponse(
            responseCode = "201",
            description = "Song created",
            content = @Content(schema = @Schema(implementation = Song.class)))
    @APIResponse(responseCode = "403", description = "The song belongs to another user")
    @APIResponse(responseCode = "409", description = "The song is being changed concurrently; retry")
    public Uni<RestResponse<Song>> put(@BeanParam SongPath path, @Valid @NotNull SongTags request) {
        String me = caller.username();
        SongStore.Key key = path.key();
        if (request.tags().size() > settings.maxTags()) {
            throw ProblemException.invalid("tags", "a song carries at most " + settings.maxTags() + " tags");
        }
        Set<String> tags = new TreeSet<>();
        for (int i = 0; i < request.tags().size(); i++) {
            tags.add(SongRules.tag("tags[" + i + "]", request.tags().get(i)));
        }
        return store.change(key, me, true, current -> tags)
                .map(changed -> RestResponse.status(
                        changed.created() ? RestResponse.Status.CREATED : RestResponse.Status.OK, changed.song()));
    }
}
