package dev.cqlpatterns.songs;

import static dev.cqlpatterns.songs.SongsTest.put;
import static dev.cqlpatterns.songs.SongsTest.taggedAndUntagged;
import static dev.cqlpatterns.songs.SongsTest.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.ChurnProfile;
import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.ReadTraces;
import dev.cqlpatterns.testsupport.SetGenerations;
import dev.cqlpatterns.testsupport.StoredRows;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * GET /songs?tag= after a tag was churned through the routes (songs tagged, then untagged): counts,
 * from the node's traces, the tombstone cells the read scans. With generations
 * (cql/049_partition_generations.cql) that is at most the removals one generation collects, whatever
 * the churn; on one partition for ever, it is one per song untagged.
 */
@QuarkusTest
@TestProfile(ChurnProfile.class)
class SongsByTagAgedTest {
    private static final String AUTH = Tokens.bearer("curator");

    @Inject
    StoredRows stored;

    @Test
    void should_scan_no_more_tombstones_after_ten_times_the_untagged_songs() {
        String tag = unique("aged-");
        String lasting = "zz lasting";
        put(lasting, "Album", "Song", List.of(tag)).then().statusCode(201);

        long small = deadCellsAfter(tag, 0, 60, lasting);
        long large = deadCellsAfter(tag, 60, 600, lasting);

        assertThat(List.of(small, large))
                .as("tombstone cells of GET /songs?tag= after 60 and 600 songs untagged")
                .allSatisfy(cells ->
                        assertThat(cells).isLessThanOrEqualTo(ChurnProfile.REMOVALS + SetGenerations.DURING_A_MOVE));
    }

    @Test
    void should_list_exactly_the_tagged_songs_after_concurrent_changes_across_moves() {
        String tag = unique("churn-");
        List<String> songs = IntStream.range(0, 40)
                .mapToObj(i -> String.format("song %02d", i))
                .toList();
        String artist = unique("Churner ");
        songs.forEach(song -> put(artist, "Album", song, List.of()).then().statusCode(201));

        Concurrently.run(IntStream.range(0, 6).boxed().toList(), worker -> {
            Random random = new Random(worker);
            for (int i = 0; i < 80; i++) {
                String song = songs.get(random.nextInt(songs.size()));
                var request = given().header("Authorization", AUTH);
                int status = random.nextInt(3) == 0
                        ? request.delete("/songs/{a}/{b}/{s}/tags/{t}", artist, "Album", song, tag)
                                .statusCode()
                        : request.put("/songs/{a}/{b}/{s}/tags/{t}", artist, "Album", song, tag)
                                .statusCode();
                assertThat(status).as("tag change of %s", song).isIn(200, 201, 204, 409);
            }
            return null;
        });
        // Untag most of them, one after the other, so the tag moves again.
        songs.subList(0, 30)
                .forEach(song -> given().header("Authorization", AUTH)
                        .delete("/songs/{a}/{b}/{s}/tags/{t}", artist, "Album", song, tag)
                        .then()
                        .statusCode(204));
        SetGenerations.settled(stored, "songs_by_tag", tag);

        Set<String> tagged = new TreeSet<>();
        for (String song : songs) {
            List<String> tags = given().get("/songs/{a}/{b}/{s}", artist, "Album", song)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("tags");
            if (tags.contains(tag)) {
                tagged.add(song);
            }
        }
        assertThat(listed(tag))
                .as("GET /songs?tag= against the songs' own tags")
                .isEqualTo(tagged);
        assertThat(SetGenerations.current(stored, "songs_by_tag", tag))
                .as("the tag's generation after the churn")
                .isGreaterThanOrEqualTo(2);
    }

    @Test
    void should_finish_a_move_whose_mover_stopped_half_way() {
        String tag = unique("stalled-");
        String artist = unique("Stalled ");
        put(artist, "Album", "Kept", List.of(tag)).then().statusCode(201);
        // A move claimed an hour ago by a process that died before it copied anything.
        stored.execute(
                "INSERT INTO partition_generations (set_name, set_key, current, next, moving_since) "
                        + "VALUES ('songs_by_tag', ?, 0, 1, ?)",
                tag,
                Instant.now().minus(Duration.ofHours(1)));
        put(artist, "Album", "Added during the move", List.of(tag)).then().statusCode(201);

        for (int i = 0; i < ChurnProfile.REMOVALS; i++) {
            taggedAndUntagged(artist, "Churned " + i, tag);
        }
        SetGenerations.settled(stored, "songs_by_tag", tag);

        assertThat(SetGenerations.current(stored, "songs_by_tag", tag))
                .as("the generation after the stalled move was taken over")
                .isGreaterThanOrEqualTo(1);
        assertThat(given().queryParam("tag", tag)
                        .get("/songs")
                        .then()
                        .statusCode(200)
                        .extract()
                        .jsonPath()
                        .getList("items.song", String.class))
                .as("the tag's songs")
                .containsExactly("Added during the move", "Kept");
    }

    /** Tags and untags songs {@code from} to {@code to}, then answers the tombstone cells one listing scans. */
    private long deadCellsAfter(String tag, int from, int to, String lasting) {
        for (int i = from; i < to; i++) {
            taggedAndUntagged(String.format("a %04d", i), "Song", tag);
        }
        return ReadTraces.setTombstones(
                stored,
                "songs_by_tag",
                tag,
                "GET /songs?tag=",
                to + " songs untagged",
                () -> assertThat(listed(tag)).as("the tag after its churn").containsExactly(lasting));
    }

    /** Every song the tag's listing holds, in pages of 7 (artists, or songs when one artist). */
    private static Set<String> listed(String tag) {
        Set<String> names = new TreeSet<>();
        String cursor = null;
        do {
            var request = given().queryParam("tag", tag).queryParam("limit", 7);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page =
                    request.get("/songs").then().statusCode(200).extract().jsonPath();
            List<String> artists = page.getList("items.artist");
            List<String> songs = page.getList("items.song");
            for (int i = 0; i < songs.size(); i++) {
                names.add(artists.get(i).startsWith("Churner ") ? songs.get(i) : artists.get(i));
            }
            cursor = page.getString("next");
        } while (cursor != null);
        return names;
    }
}
