package dev.cqlpatterns.songs;

import dev.cqlpatterns.platform.http.Text;
import jakarta.ws.rs.PathParam;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;

/** The song a route's path names, /songs/{artist}/{album}/{song}: each part as {@link SongRules#name} checks it. */
public record SongPath(
        @Parameter(
                description = "Artist",
                example = "Miles Davis",
                schema =
                        @Schema(
                                type = SchemaType.STRING,
                                maxLength = SongRules.NAME_MAX,
                                pattern = Text.SINGLE_LINE_NOT_BLANK))
        @PathParam("artist")
        String artist,

        @Parameter(
                description = "Album",
                example = "Kind of Blue",
                schema =
                        @Schema(
                                type = SchemaType.STRING,
                                maxLength = SongRules.NAME_MAX,
                                pattern = Text.SINGLE_LINE_NOT_BLANK))
        @PathParam("album")
        String album,

        @Parameter(
                description = "Song title",
                example = "So What",
                schema =
                        @Schema(
                                type = SchemaType.STRING,
                                maxLength = SongRules.NAME_MAX,
                                pattern = Text.SINGLE_LINE_NOT_BLANK))
        @PathParam("song")
        String song) {

    /** The song's key: 400 naming the first part that is no artist, album or song title. */
    SongStore.Key key() {
        return new SongStore.Key(
                SongRules.name("artist", artist), SongRules.name("album", album), SongRules.name("song", song));
    }
}
