package dev.cqlpatterns.songs;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A song and its tags, in tag order. */
@Schema(name = "Song")
public record Song(
        @Schema(examples = "Miles Davis") String artist,
        @Schema(examples = "Kind of Blue") String album,
        @Schema(examples = "So What") String song,
        @Schema(description = "Lower case, sorted", examples = "[\"jazz\", \"modal\"]") List<String> tags) {
}
