package dev.cqlpatterns.songs;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import dev.cqlpatterns.platform.errors.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** GET /songs/{artist}/{album}/{song}: the song and its tags set, one partition of songs. */
@IfBuildProperty(name = FunctionGroup.Property.SONGS, stringValue = "true", enableIfMissing = true)
@Path("/songs/{artist}/{album}/{song}")
@Tag(name = "songs")
public class GetSong {

    @Inject
    SongStore store;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "A song and its tags (one partition read)")
    public Uni<Song> get(
            @Parameter(description = "Artist", example = "Miles Davis") @PathParam("artist") String artist,
            @Parameter(description = "Album", example = "Kind of Blue") @PathParam("album") String album,
            @Parameter(description = "Song title", example = "So What") @PathParam("song") String song) {
        SongStore.Key key = new SongStore.Key(artist, album, song);
        return store.find(key).map(found -> {
            if (found == null) {
                throw ProblemException.notFound("No song " + song + " by " + artist + " on " + album);
            }
            return found;
        });
    }
}
