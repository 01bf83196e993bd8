package dev.cqlpatterns.songs;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /songs?tag=: the songs carrying a tag, in (artist, album, song) order: the tag's generation,
 * then one partition of songs_by_tag (or songs_by_tag_generations) per page ({@link TagIndex}). The
 * cursor is the last song's key, valid across generations.
 */
@IfBuildProperty(name = FunctionGroup.Property.SONGS, stringValue = "true", enableIfMissing = true)
@Path("/songs")
@Tag(name = "songs")
public class SongsByTag {
    @Inject
    TagIndex index;

    @Inject
    Cursors cursors;

    @Schema(name = "TaggedSong")
    public record TaggedSong(
            @Schema(pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = SongRules.NAME_MAX, examples = "Miles Davis")
            String artist,

            @Schema(pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = SongRules.NAME_MAX, examples = "Kind of Blue")
            String album,

            @Schema(pattern = Text.SINGLE_LINE_NOT_BLANK, maxLength = SongRules.NAME_MAX, examples = "So What")
            String song) {}

    /** Read back from cursors by Jackson, also in a native image. */
    @RegisterForReflection
    record Position(
            @NotNull String artist,
            @NotNull String album,
            @NotNull String song) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Songs carrying a tag (the tag's generation, then one partition read per page)")
    public Uni<Page<TaggedSong>> byTag(
            @Parameter(
                            description = "Tag; matched trimmed and lower case",
                            example = "jazz",
                            required = true,
                            schema =
                                    @Schema(
                                            type = SchemaType.STRING,
                                            maxLength = SongRules.TAG_MAX,
                                            pattern = Text.SINGLE_LINE_NOT_BLANK))
                    @QueryParam("tag")
                    String tag,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor) {
        String normalized = SongRules.tag("tag", tag);
        int size = cursors.limit(limit);
        String scope = "songs-by-tag:" + normalized;
        TagIndex.Entry after = cursors.decode(scope, cursor, Position.class)
                .map(p -> new TagIndex.Entry(p.artist(), p.album(), p.song()))
                .orElse(null);
        Uni<AsyncResultSet> read = index.page(normalized, after, size + 1);
        return read.map(rs -> {
            List<TaggedSong> songs = Cql.rows(rs).stream().map(SongsByTag::song).toList();
            if (songs.size() <= size) {
                return Page.of(songs, null);
            }
            TaggedSong last = songs.get(size - 1);
            return Page.of(
                    songs.subList(0, size),
                    cursors.encode(scope, new Position(last.artist(), last.album(), last.song())));
        });
    }

    private static TaggedSong song(Row row) {
        return new TaggedSong(row.getString("artist"), row.getString("album"), row.getString("song"));
    }
}
