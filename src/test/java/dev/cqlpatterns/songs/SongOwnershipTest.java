package dev.cqlpatterns.songs;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.ConditionalWriteFaults;
import dev.cqlpatterns.testsupport.StoredRows;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, ownership (OWASP API1/API5): a song belongs to the caller who created it; only they
 * replace, add or remove its tags. Anyone else gets 403 and nothing stored changes (the song, and
 * the songs-by-tag lookup).
 */
@QuarkusTest
class SongOwnershipTest {
    private static final String ALBUM = "Album";
    private static final String SONG = "Song";

    @Inject
    StoredRows stored;

    @Inject
    ConditionalWriteFaults faults;

    @AfterEach
    void clearFaults() {
        faults.clearFaults();
    }

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    static Response put(String caller, String artist, List<String> tags) {
        return given().header("Authorization", Tokens.bearer(caller))
                .contentType(ContentType.JSON)
                .body(Map.of("tags", tags))
                .when()
                .put("/songs/{a}/{b}/{s}", artist, ALBUM, SONG);
    }

    static Response addTag(String caller, String artist, String tag) {
        return given().header("Authorization", Tokens.bearer(caller))
                .when()
                .put("/songs/{a}/{b}/{s}/tags/{t}", artist, ALBUM, SONG, tag);
    }

    static Response removeTag(String caller, String artist, String tag) {
        return given().header("Authorization", Tokens.bearer(caller))
                .when()
                .delete("/songs/{a}/{b}/{s}/tags/{t}", artist, ALBUM, SONG, tag);
    }

    static Response get(String artist) {
        return given().when().get("/songs/{a}/{b}/{s}", artist, ALBUM, SONG);
    }

    static String tag(String prefix) {
        return SongsTest.unique(prefix + "-");
    }

    static List<String> sorted(String... tags) {
        return Stream.of(tags).sorted().toList();
    }

    /** The song's tags as stored, and the songs the lookup by each tag finds. */
    static void assertStored(String artist, List<String> tags, String owner, List<String> notTagged) {
        get(artist).then().statusCode(200).body("tags", equalTo(tags)).body("owner", equalTo(owner));
        tags.forEach(t ->
                assertThat(SongsTest.songsTagged(t)).as("songs tagged %s", t).containsExactly(SONG));
        notTagged.forEach(t ->
                assertThat(SongsTest.songsTagged(t)).as("songs tagged %s", t).isEmpty());
    }

    @Test
    void should_forbid_replacing_the_tags_of_another_users_song() {
        String artist = SongsTest.unique("Owned ");
        String jazz = tag("jazz");
        String spam = tag("spam");
        put("vera", artist, List.of(jazz)).then().statusCode(201).body("owner", equalTo("vera"));

        problem(put("mallory", artist, List.of(spam)), 403).body("type", equalTo("urn:cql-patterns:problem:forbidden"));
        problem(put("mallory", artist, List.of()), 403);
        assertStored(artist, List.of(jazz), "vera", List.of(spam));

        String modal = tag("modal");
        put("vera", artist, List.of(jazz, modal)).then().statusCode(200).body("owner", equalTo("vera"));
        assertStored(artist, sorted(jazz, modal), "vera", List.of(spam));
    }

    @Test
    void should_forbid_adding_a_tag_to_another_users_song_so_nobody_fills_its_cap() {
        String artist = SongsTest.unique("Capped ");
        List<String> tags =
                IntStream.range(0, 31).mapToObj(i -> "t" + i).sorted().toList();
        put("vera", artist, tags).then().statusCode(201);

        String spam = tag("spam");
        problem(addTag("mallory", artist, spam), 403);
        get(artist).then().body("tags", equalTo(tags));
        assertThat(SongsTest.songsTagged(spam)).isEmpty();

        // The one free place is still the owner's.
        String last = tag("last");
        addTag("vera", artist, last).then().statusCode(200);
        get(artist).then().body("tags.size()", equalTo(32));
    }

    @Test
    void should_forbid_removing_a_tag_from_another_users_song() {
        String artist = SongsTest.unique("Kept ");
        String jazz = tag("jazz");
        put("vera", artist, List.of(jazz)).then().statusCode(201);

        problem(removeTag("mallory", artist, jazz), 403);
        // Also for a tag the song does not carry: the answer does not depend on the tags.
        problem(removeTag("mallory", artist, "absent"), 403);
        assertStored(artist, List.of(jazz), "vera", List.of());

        removeTag("vera", artist, jazz).then().statusCode(204);
        assertStored(artist, List.of(), "vera", List.of(jazz));
    }

    @Test
    void should_give_a_new_song_to_exactly_one_of_two_racing_creators() {
        for (int round = 0; round < 3; round++) {
            String artist = SongsTest.unique("Raced ");
            List<String> callers = List.of("wanda", "xavier");
            Map<String, String> tagOf = Map.of("wanda", tag("w"), "xavier", tag("x"));
            List<Integer> statuses = Concurrently.run(
                    callers, c -> put(c, artist, List.of(tagOf.get(c))).statusCode());
            assertThat(statuses).containsExactlyInAnyOrder(201, 403);
            String winner = callers.get(statuses.indexOf(201));
            String loser = callers.get(statuses.indexOf(403));
            assertStored(artist, List.of(tagOf.get(winner)), winner, List.of(tagOf.get(loser)));
        }
    }

    /**
     * The create commits and Cassandra answers "not applied" with the creator's own row (its
     * coordinator finished its own accepted proposal in a later round): the creator gets 201.
     */
    @Test
    void should_answer_201_when_the_create_is_answered_not_applied_with_its_own_row() {
        String artist = SongsTest.unique("Own ");
        String jazz = tag("own");
        faults.injectOwnWriteNotApplied("songs", 1);
        put("yvonne", artist, List.of(jazz)).then().statusCode(201).body("owner", equalTo("yvonne"));
        put("yvonne", artist, List.of(jazz)).then().statusCode(200);
        assertStored(artist, List.of(jazz), "yvonne", List.of());
    }

    @Test
    void should_let_the_first_writer_claim_a_song_from_before_owners() {
        String artist = SongsTest.unique("Legacy ");
        String old = tag("old");
        writeSongWithoutOwner(artist, old);
        get(artist).then().statusCode(200).body("owner", nullValue()).body("tags", equalTo(List.of(old)));

        String claimed = tag("claimed");
        addTag("yara", artist, claimed).then().statusCode(200).body("owner", equalTo("yara"));
        problem(put("mallory", artist, List.of()), 403);
        assertStored(artist, sorted(old, claimed), "yara", List.of());

        // Two callers claiming one unowned song at once: one owns it, the other is refused.
        for (int round = 0; round < 3; round++) {
            String raced = SongsTest.unique("Legacy raced ");
            writeSongWithoutOwner(raced, old);
            List<String> callers = List.of("wanda", "xavier");
            List<Integer> statuses =
                    Concurrently.run(callers, c -> addTag(c, raced, c).statusCode());
            assertThat(statuses).containsExactlyInAnyOrder(200, 403);
            String winner = callers.get(statuses.indexOf(200));
            get(raced).then().body("owner", equalTo(winner)).body("tags", equalTo(sorted(old, winner)));
        }
    }

    /** A song as stored before cql/045_song_owner.cql: no owner. */
    private void writeSongWithoutOwner(String artist, String tag) {
        long version = System.currentTimeMillis() * 1000;
        stored.execute(
                "INSERT INTO songs (artist, album, song, tags, last_removed, version) VALUES (?, ?, ?, ?, ?, ?)",
                artist,
                ALBUM,
                SONG,
                Set.of(tag),
                Set.of(),
                version);
        stored.execute(
                "INSERT INTO songs_by_tag (tag, artist, album, song) VALUES (?, ?, ?, ?)", tag, artist, ALBUM, SONG);
    }
}
