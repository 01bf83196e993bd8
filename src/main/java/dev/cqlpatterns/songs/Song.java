package dev.cqlpatterns.songs;

import dev.cqlpatterns.platform.identity.Usernames;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A song, its tags in tag order, and its owner (the only caller who may change its tags). */
@Schema(name = "Song")
public record Song(
        @Schema(examples = "Miles Davis") String artist,
        @Schema(examples = "Kind of Blue") String album,
        @Schema(examples = "So What") String song,
        @Schema(description = "Lower case, sorted", examples = "[\"jazz\", \"modal\"]") List<String> tags,
        @Schema(pattern = Usernames.PATTERN, description = "Username of the song's owner, who created it and alone may change its tags; null for a "
                + "song from before owners were recorded, until its next change claims it", nullable = true, examples = "alice")
        String owner) {
}
