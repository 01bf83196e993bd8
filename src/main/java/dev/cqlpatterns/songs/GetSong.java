package dev.cqlpatterns.songs;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.openapi.annotations.Operation;
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
    public Uni<Song> get(@BeanParam SongPath path) {
        SongStore.Key key = path.key();
        return store.find(key).map(found -> {
            if (found == null) {
                throw ProblemException.notFound(
                        "No song " + path.song() + " by " + path.artist() + " on " + path.album());
            }
            return found;
        });
    }
}
