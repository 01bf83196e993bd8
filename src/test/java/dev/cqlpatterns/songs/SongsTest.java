package dev.cqlpatterns.songs;

import static dev.cqlpatterns.testsupport.ContractClient.TEST_APPLICATION;
import static dev.cqlpatterns.testsupport.ContractClient.segment;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@QuarkusTest
class SongsTest {
    private static final String CURATOR = "curator";
    private static final String AUTH = Tokens.bearer(CURATOR);

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    static Response put(String artist, String album, String song, List<String> tags) {
        return given().header("Authorization", AUTH)
                .contentType(ContentType.JSON)
                .body(Map.of("tags", tags))
                .when()
                .put("/songs/{a}/{b}/{s}", artist, album, song);
    }

    /** Adds {@code song} of {@code artist}'s Album, new, tagged {@code tag}, then untags it: one removal from the tag. */
    static void taggedAndUntagged(String artist, String song, String tag) {
        // Without REST Assured: the aged tests do this hundreds of times (ContractClient.TEST_APPLICATION).
        String path = "/songs/" + segment(artist) + "/Album/" + segment(song);
        TEST_APPLICATION.expect(201, "PUT", path, CURATOR, Map.of("tags", List.of(tag)));
        TEST_APPLICATION.expect(204, "DELETE", path + "/tags/" + segment(tag), CURATOR, null);
    }

    static Response byTag(String tag, Integer limit, String cursor) {
        var request = given().queryParam("tag", tag);
        if (limit != null) {
            request.queryParam("limit", limit);
        }
        if (cursor != null) {
            request.queryParam("cursor", cursor);
        }
        return request.when().get("/songs");
    }

    static List<String> songsTagged(String tag) {
        return byTag(tag, 500, null).then().statusCode(200).extract().jsonPath().getList("items.song");
    }

    @Test
    void should_store_a_song_with_tags_and_find_it_by_tag() {
        String artist = unique("Miles Davis ");
        String jazz = unique("jazz-");
        String modal = unique("modal-");
        put(artist, "Kind of Blue", "So What", List.of(" " + jazz.toUpperCase() + " ", modal, jazz))
                .then()
                .statusCode(201)
                .body("tags", equalTo(List.of(jazz, modal)));
        put(artist, "Kind of Blue", "So What", List.of(jazz, modal)).then().statusCode(200);

        given().when()
                .get("/songs/{a}/{b}/{s}", artist, "Kind of Blue", "So What")
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "1")
                .body("artist", equalTo(artist))
                .body("song", equalTo("So What"))
                .body("tags", equalTo(List.of(jazz, modal)));
        // The tag's generation, then its partition of that generation (cql/049_partition_generations.cql).
        byTag(jazz.toUpperCase(), null, null)
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "2")
                .body("items", hasSize(1))
                .body("items[0].artist", equalTo(artist))
                .body("items[0].album", equalTo("Kind of Blue"))
                .body("next", nullValue());
    }

    @Test
    void should_keep_the_tag_table_in_step_with_the_set() {
        String artist = unique("Artist ");
        String a = unique("a-");
        String b = unique("b-");
        String c = unique("c-");
        put(artist, "Album", "Song", List.of(a, b)).then().statusCode(201);
        put(artist, "Album", "Song", List.of(b, c)).then().statusCode(200).body("tags", equalTo(List.of(b, c)));
        assertThat(songsTagged(a)).isEmpty();
        assertThat(songsTagged(b)).containsExactly("Song");
        assertThat(songsTagged(c)).containsExactly("Song");

        given().header("Authorization", AUTH)
                .when()
                .put("/songs/{a}/{b}/{s}/tags/{t}", artist, "Album", "Song", a)
                .then()
                .statusCode(200)
                .body("tags", equalTo(List.of(a, b, c)));
        given().header("Authorization", AUTH)
                .when()
                .delete("/songs/{a}/{b}/{s}/tags/{t}", artist, "Album", "Song", b)
                .then()
                .statusCode(204);
        given().header("Authorization", AUTH)
                .when()
                .delete("/songs/{a}/{b}/{s}/tags/{t}", artist, "Album", "Song", b)
                .then()
                .statusCode(204);
        given().when().get("/songs/{a}/{b}/{s}", artist, "Album", "Song").then().body("tags", equalTo(List.of(a, c)));
        assertThat(songsTagged(a)).containsExactly("Song");
        assertThat(songsTagged(b)).isEmpty();
        put(artist, "Album", "Song", List.of()).then().statusCode(200).body("tags", hasSize(0));
        assertThat(songsTagged(a)).isEmpty();
        assertThat(songsTagged(c)).isEmpty();
    }

    @Test
    void should_stay_in_step_under_concurrent_replacements() {
        String artist = unique("Racer ");
        List<String> tags =
                IntStream.range(0, 4).mapToObj(i -> unique("t" + i + "-")).toList();
        put(artist, "Album", "Song", tags).then().statusCode(201);
        for (int round = 0; round < 4; round++) {
            List<List<String>> sets = List.of(
                    List.of(tags.get(0), tags.get(1)), List.of(tags.get(2), tags.get(3)), List.of(tags.get(round % 4)));
            List<Integer> statuses = Concurrently.run(
                    sets, set -> put(artist, "Album", "Song", set).statusCode());
            assertThat(statuses).containsOnly(200);
            List<String> finalTags = given().when()
                    .get("/songs/{a}/{b}/{s}", artist, "Album", "Song")
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath()
                    .getList("tags");
            assertThat(sets).contains(finalTags);
            for (String tag : tags) {
                assertThat(songsTagged(tag))
                        .as("songs tagged %s after round %d", tag, round)
                        .isEqualTo(finalTags.contains(tag) ? List.of("Song") : List.of());
            }
        }
    }

    @Test
    void should_page_the_songs_of_a_tag() {
        String tag = unique("paged-");
        String artist = unique("Band ");
        List<String> titles = List.of("A", "B", "C", "D", "E");
        titles.forEach(t -> put(artist, "Album", t, List.of(tag)).then().statusCode(201));
        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            Response page = byTag(tag, 2, cursor);
            page.then().statusCode(200).header("X-Partitions-Read", "2");
            seen.addAll(page.jsonPath().getList("items.song"));
            cursor = page.jsonPath().getString("next");
            pages++;
        } while (cursor != null);
        assertThat(seen).isEqualTo(titles);
        assertThat(pages).isEqualTo(3);
        String next = byTag(tag, 2, null).jsonPath().getString("next");
        problem(byTag("other-" + tag, 2, next), 400);
        problem(byTag(tag, 2, "garbage"), 400).body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
    }

    @Test
    void should_refuse_empty_tags_and_too_many() {
        String artist = unique("Artist ");
        problem(put(artist, "Album", "Song", List.of("ok", "")), 400, "tags[1]");
        problem(put(artist, "Album", "Song", List.of("  ")), 400);
        problem(put(artist, "Album", "Song", List.of("x".repeat(51))), 400);
        problem(
                given().header("Authorization", AUTH)
                        .contentType(ContentType.JSON)
                        .body(Map.of())
                        .when()
                        .put("/songs/{a}/{b}/{s}", artist, "Album", "Song"),
                400);
        problem(byTag("", null, null), 400, "tag");
        problem(given().when().get("/songs"), 400);

        List<String> many = IntStream.range(0, 33).mapToObj(i -> "tag" + i).toList();
        problem(put(artist, "Album", "Song", many), 400);
        put(artist, "Album", "Song", many.subList(0, 32)).then().statusCode(201);
        problem(tag("put", artist, " "), 400);
        problem(tag("put", artist, "one-more"), 409);
        tag("put", artist, "tag7").then().statusCode(200);
    }

    /** PUT or DELETE the tag {@code tag} of the artist's Album/Song, as the test's caller. */
    private static Response tag(String method, String artist, String tag) {
        return given().header("Authorization", AUTH)
                .when()
                .request(method.toUpperCase(), "/songs/{a}/{b}/{s}/tags/{t}", artist, "Album", "Song", tag);
    }

    @Test
    void should_answer_404_for_unknown_songs_and_401_without_a_token() {
        String artist = unique("Nobody ");
        problem(given().when().get("/songs/{a}/{b}/{s}", artist, "Album", "Song"), 404);
        problem(tag("put", artist, "rock"), 404);
        problem(tag("delete", artist, "rock"), 404);
        problem(
                given().contentType(ContentType.JSON)
                        .body(Map.of("tags", List.of("rock")))
                        .when()
                        .put("/songs/{a}/{b}/{s}", artist, "Album", "Song"),
                401);
        given().when().get("/songs/{a}/{b}/{s}", artist, "Album", "Song").then().statusCode(404);
    }
}
