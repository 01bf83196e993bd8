package dev.cqlpatterns.songs;

import static dev.cqlpatterns.songs.SongsTest.put;
import static dev.cqlpatterns.songs.SongsTest.songsTagged;
import static dev.cqlpatterns.songs.SongsTest.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.testsupport.StoredRows;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * A change of a song's tags that stopped half way (a 503 after its conditional write, before or
 * part way through its songs_by_tag writes; simulated by writing just those rows here) is finished
 * by the client's retry of the same request, leaving exactly what one clean request leaves. The
 * tag rows are idempotent writes USING TIMESTAMP the song's version, no logged batch (issue 14).
 */
@QuarkusTest
class HalfDoneTagsTest {
    private static final String ALBUM = "Half Done";
    private static final String AUTH = Tokens.bearer("curator");

    @Inject
    StoredRows rows;

    /** What the song's row and songs_by_tag say of it, without its version. */
    private Map<String, Object> stored(String artist, String song, Set<String> tagsSeen) {
        Row row = rows.execute(
                        "SELECT tags, last_removed, owner FROM songs WHERE artist = ? AND album = ? AND song = ?",
                        artist,
                        ALBUM,
                        song)
                .get(0);
        Map<String, Object> state = new LinkedHashMap<>();
        state.put("tags", new TreeSet<>(row.getSet("tags", String.class)));
        state.put("lastRemoved", new TreeSet<>(row.getSet("last_removed", String.class)));
        state.put("owner", row.getString("owner"));
        Set<String> tagged = new TreeSet<>();
        for (String tag : tagsSeen) {
            if (!rows.execute(
                            "SELECT song FROM songs_by_tag WHERE tag = ? AND artist = ? AND album = ? AND song = ?",
                            tag,
                            artist,
                            ALBUM,
                            song)
                    .isEmpty()) {
                tagged.add(tag);
            }
            assertThat(songsTagged(tag).contains(song))
                    .as("GET /songs?tag=%s lists %s", tag, song)
                    .isEqualTo(tagged.contains(tag));
        }
        state.put("tagRows", tagged);
        return state;
    }

    /** The conditional write of a change, as it landed: the song's new tags at the next version. */
    private long changed(String artist, String song, Set<String> tags, Set<String> removed) {
        long version = rows.execute(
                                "SELECT version FROM songs WHERE artist = ? AND album = ? AND song = ?",
                                artist,
                                ALBUM,
                                song)
                        .get(0)
                        .getLong("version")
                + 1;
        rows.execute(
                "UPDATE songs SET tags = ?, last_removed = ?, version = ? WHERE artist = ? AND album = ? AND song = ?",
                tags,
                removed,
                version,
                artist,
                ALBUM,
                song);
        return version;
    }

    @Test
    void should_finish_a_put_that_stopped_half_way_through_its_tag_rows() {
        String artist = unique("Half Put ");
        String a = unique("a-");
        String b = unique("b-");
        String c = unique("c-");
        Set<String> seen = Set.of(a, b, c);
        put(artist, ALBUM, "Clean", List.of(a, b)).then().statusCode(201);
        put(artist, ALBUM, "Clean", List.of(a, c)).then().statusCode(200);
        put(artist, ALBUM, "Halfway", List.of(a, b)).then().statusCode(201);

        // PUT [a, c] stopped after the song's write and one of its three tag writes (c added; a and b not yet).
        long version = changed(artist, "Halfway", Set.of(a, c), Set.of(b));
        rows.execute(
                "INSERT INTO songs_by_tag (tag, artist, album, song) VALUES (?, ?, ?, ?) USING TIMESTAMP ?",
                c,
                artist,
                ALBUM,
                "Halfway",
                version);
        assertThat(songsTagged(b)).contains("Halfway");

        put(artist, ALBUM, "Halfway", List.of(a, c))
                .then()
                .statusCode(200)
                .body(
                        "tags",
                        org.hamcrest.Matchers.equalTo(
                                new TreeSet<>(Set.of(a, c)).stream().toList()));
        assertThat(stored(artist, "Halfway", seen))
                .isEqualTo(stored(artist, "Clean", seen))
                .containsEntry("tagRows", new TreeSet<>(Set.of(a, c)));
    }

    @Test
    void should_finish_a_tag_added_or_removed_whose_tag_rows_were_not_written() {
        String artist = unique("Half Tag ");
        String a = unique("a-");
        String b = unique("b-");
        Set<String> seen = Set.of(a, b);
        for (String song : List.of("Clean", "Added", "Removed")) {
            put(artist, ALBUM, song, List.of(a)).then().statusCode(201);
        }
        // Clean: b added, then removed again, as two clean requests.
        given().header("Authorization", AUTH)
                .when()
                .put("/songs/{a}/{b}/{s}/tags/{t}", artist, ALBUM, "Clean", b)
                .then()
                .statusCode(200);
        Map<String, Object> cleanAdded = stored(artist, "Clean", seen);
        given().header("Authorization", AUTH)
                .when()
                .delete("/songs/{a}/{b}/{s}/tags/{t}", artist, ALBUM, "Clean", b)
                .then()
                .statusCode(204);

        // PUT .../tags/b stopped after the song's write: no tag row yet.
        changed(artist, "Added", Set.of(a, b), Set.of());
        given().header("Authorization", AUTH)
                .when()
                .put("/songs/{a}/{b}/{s}/tags/{t}", artist, ALBUM, "Added", b)
                .then()
                .statusCode(200);
        assertThat(stored(artist, "Added", seen))
                .isEqualTo(cleanAdded)
                .containsEntry("tagRows", new TreeSet<>(Set.of(a, b)));

        // DELETE .../tags/b stopped after the song's write: b's tag row still there.
        put(artist, ALBUM, "Removed", List.of(a, b)).then().statusCode(200);
        changed(artist, "Removed", Set.of(a), Set.of(b));
        assertThat(songsTagged(b)).contains("Removed");
        given().header("Authorization", AUTH)
                .when()
                .delete("/songs/{a}/{b}/{s}/tags/{t}", artist, ALBUM, "Removed", b)
                .then()
                .statusCode(204);
        assertThat(stored(artist, "Removed", seen))
                .isEqualTo(stored(artist, "Clean", seen))
                .containsEntry("tagRows", Set.of(a));
    }
}
