package dev.cqlpatterns.songs;

import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Usernames;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A song, its tags in tag order, and its owner (the only caller who may change its tags). */
@Schema(name = "Song")
public record Song(
        @Schema(pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = SongRules.NAME_MAX, examples = "Miles Davis")
        String artist,

        @Schema(pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = SongRules.NAME_MAX, examples = "Kind of Blue")
        String album,

        @Schema(pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = SongRules.NAME_MAX, examples = "So What")
        String song,

        @Schema(
                description = "Lower case, sorted",
                type = SchemaType.ARRAY,
                implementation = PutSong.SongTag.class,
                examples = "[\"jazz\", \"modal\"]")
        List<String> tags,

        @Schema(
                pattern = Usernames.ANSWERED,
                description = "Username of the song's owner, who created it and alone may change its tags; null for a "
                        + "song from before owners were recorded, until its next change claims it",
                nullable = true,
                examples = "alice")
        String owner) {}
