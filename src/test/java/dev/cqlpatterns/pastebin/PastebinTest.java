package dev.cqlpatterns.pastebin;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import com.fasterxml.jackson.databind.JsonNode;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.ContractClient;
import dev.cqlpatterns.testsupport.Pages;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class PastebinTest {
    /** Every listing period in seconds, the default ones and SmallLimitsProfile's. */
    private static final List<Integer> LISTING_PERIODS = List.of(3, 60, 600, 3600, 21600, 86400, 604800, 2592000);

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    record Created(String id, String secret, JsonPath json) {}

    static Created create(Map<String, Object> request) {
        JsonPath json = given().contentType(ContentType.JSON)
                .body(request)
                .when()
                .post("/pastes")
                .then()
                .statusCode(201)
                .contentType(ContentType.JSON)
                .extract()
                .jsonPath();
        return new Created(json.getString("id"), json.getString("secret"), json);
    }

    /**
     * A public paste created without REST Assured, for tests that create hundreds
     * ({@link ContractClient#TEST_APPLICATION} says why): the answer, with its id and secret.
     */
    static JsonNode createdQuickly(String title, String expiresIn) {
        return ContractClient.json(ContractClient.TEST_APPLICATION.expect(
                201,
                "POST",
                "/pastes",
                null,
                Map.of("title", title, "body", "body of " + title, "private", false, "expiresIn", expiresIn)));
    }

    /** Deletes {@code paste}, an answer of {@link #createdQuickly}, without REST Assured. */
    static void deletedQuickly(JsonNode paste) {
        ContractClient.TEST_APPLICATION.expect(
                204,
                "DELETE",
                "/pastes/" + paste.path("id").asText(),
                null,
                null,
                Map.of("X-Paste-Secret", paste.path("secret").asText()));
    }

    static Created createPublic(String title, String expiresIn) {
        Map<String, Object> request =
                new HashMap<>(Map.of("title", title, "body", "body of " + title, "private", false));
        if (expiresIn != null) {
            request.put("expiresIn", expiresIn);
        }
        return create(request);
    }

    static Response put(String id, String secret, Map<String, Object> change) {
        var request = given().contentType(ContentType.JSON).body(change);
        if (secret != null) {
            request.header("X-Paste-Secret", secret);
        }
        return request.when().put("/pastes/" + id);
    }

    /** POST /pastes with {@code body}, the answer not yet checked. */
    static Response post(Object body) {
        return given().contentType(ContentType.JSON).body(body).when().post("/pastes");
    }

    static Response read(String id) {
        return given().when().get("/pastes/" + id);
    }

    /** DELETE the paste, with the X-Paste-Secret {@code secret} unless it is null. */
    static Response delete(String id, String secret) {
        var request = given();
        if (secret != null) {
            request.header("X-Paste-Secret", secret);
        }
        return request.when().delete("/pastes/" + id);
    }

    /** GET /pastes (the newest public ones) with {@code query}, the answer not yet checked. */
    static Response latestPage(Map<String, ?> query) {
        return given().queryParams(query).when().get("/pastes");
    }

    /** The newest public pastes, first page of 500: what was just created is on it, if listed. */
    static List<Map<String, Object>> latest() {
        return latestPage(Map.of("limit", 500))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items");
    }

    static List<String> latestIds() {
        return latest().stream().map(item -> (String) item.get("id")).toList();
    }

    static Map<String, Object> listed(String id) {
        return latest().stream()
                .filter(item -> id.equals(item.get("id")))
                .findFirst()
                .orElse(null);
    }

    @Test
    void should_create_read_and_list_a_public_paste() {
        String title = "hello " + UUID.randomUUID();
        Created paste =
                create(Map.of("title", title, "body", "line 1\nline 2 ✓", "private", false, "expiresIn", "P7D"));
        assertThat(paste.secret()).matches("[A-Za-z0-9_-]{43}");
        Instant createdAt = Instant.parse(paste.json().getString("createdAt"));
        assertThat(Instant.parse(paste.json().getString("expiresAt"))).isEqualTo(createdAt.plusSeconds(7 * 86_400));

        read(paste.id())
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "1")
                .body("id", equalTo(paste.id()))
                .body("title", equalTo(title))
                .body("body", equalTo("line 1\nline 2 ✓"))
                .body("private", equalTo(false))
                .body("createdAt", equalTo(paste.json().getString("createdAt")))
                .body("expiresAt", equalTo(paste.json().getString("expiresAt")))
                .body("secret", nullValue())
                .body("secretHash", nullValue());

        given().queryParam("limit", 1)
                .when()
                .get("/pastes")
                .then()
                .statusCode(200)
                // the registry's partition, today's generation, and today's once per listing period (7)
                .header("X-Partitions-Read", "9")
                .body("items[0].id", equalTo(paste.id()))
                .body("items[0].title", equalTo(title))
                .body("items[0].expiresAt", equalTo(paste.json().getString("expiresAt")))
                .body("next", notNullValue());
    }

    @Test
    void should_store_only_a_hash_of_the_secret() throws Exception {
        Created paste = createPublic("hashed", null);
        Row row = session.execute(SimpleStatement.newInstance(
                        "SELECT secret_hash, expires_at FROM " + settings.keyspace() + ".pastes_by_id WHERE id = ?",
                        UUID.fromString(paste.id())))
                .one();
        ByteBuffer stored = row.getByteBuffer("secret_hash");
        byte[] expected = java.security.MessageDigest.getInstance("SHA-256")
                .digest(paste.secret().getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(stored).isEqualTo(ByteBuffer.wrap(expected));
        // no expiresIn and no configured default: never expires
        assertThat(row.isNull("expires_at")).isTrue();
        assertThat(paste.json().getString("expiresAt")).isNull();
    }

    @Test
    void should_read_a_private_paste_by_id_and_never_list_it() {
        Created paste = create(Map.of("title", "secret plans", "body", "…", "private", true));
        read(paste.id()).then().statusCode(200).body("private", equalTo(true));
        assertThat(latestIds()).doesNotContain(paste.id());
    }

    @Test
    void should_take_a_paste_off_the_list_at_once_when_made_private_and_back_when_public() {
        Created paste = createPublic("flip " + UUID.randomUUID(), "P1D");
        assertThat(latestIds()).contains(paste.id());

        put(paste.id(), paste.secret(), Map.of("private", true))
                // the paste (serial read, conditional write), the day's generation before and after the
                // hide, and the hide's count read back
                .then()
                .statusCode(200)
                .body("private", equalTo(true))
                .header("X-Partitions-Read", "5");
        assertThat(latestIds()).doesNotContain(paste.id());
        read(paste.id()).then().statusCode(200).body("private", equalTo(true));

        put(paste.id(), paste.secret(), Map.of("private", false)).then().statusCode(200);
        assertThat(latestIds()).contains(paste.id());
    }

    /**
     * The paste's rows in latest_public_pastes_by_period, in the day's current generation (another
     * test may have moved it, cql/050): its listing period, and the seconds its row has left. Read by
     * key (every listing period a test uses), never by scanning the day: the day holds the expired
     * rows of other tests.
     */
    private List<Row> periodRows(String id, Instant createdAt) {
        return periodRows(session, settings.keyspace(), id, createdAt);
    }

    static List<Row> periodRows(QuarkusCqlSession session, String keyspace, String id, Instant createdAt) {
        int day = PublicPasteList.day(createdAt);
        Row state = session.execute(SimpleStatement.newInstance(
                        String.format(
                                "SELECT current FROM %s.partition_generations "
                                        + "WHERE set_name = 'latest_public_pastes_by_period' AND set_key = ?",
                                keyspace),
                        Integer.toString(day)))
                .one();
        int generation = state == null ? 0 : state.getInt("current");
        SimpleStatement read = generation == 0
                ? SimpleStatement.newInstance(
                        String.format(
                                "SELECT id, listed_for, TTL(title) AS ttl FROM %s.latest_public_pastes_by_period "
                                        + "WHERE day = ? AND listed_for IN ? AND created_at = ? AND id = ?",
                                keyspace),
                        day,
                        LISTING_PERIODS,
                        createdAt,
                        UUID.fromString(id))
                : SimpleStatement.newInstance(
                        String.format(
                                "SELECT id, listed_for, TTL(title) AS ttl FROM "
                                        + "%s.latest_public_pastes_by_period_generations WHERE day = ? AND generation = ? "
                                        + "AND listed_for IN ? AND created_at = ? AND id = ?",
                                keyspace),
                        day,
                        generation,
                        LISTING_PERIODS,
                        createdAt,
                        UUID.fromString(id));
        return session.execute(read).all().stream()
                .filter(row -> row.getUuid("id").toString().equals(id))
                .toList();
    }

    @Test
    void should_move_a_paste_to_a_longer_listing_when_its_expiry_is_extended() {
        Created paste = createPublic("extended", "P1D");
        Instant createdAt = Instant.parse(paste.json().getString("createdAt"));
        put(paste.id(), paste.secret(), Map.of("expiresIn", "P8D")).then().statusCode(200);

        List<Row> rows = periodRows(paste.id(), createdAt);
        assertThat(rows)
                .as("rows of the paste by period after its 1-day expiry became 8 days")
                .hasSize(1);
        assertThat(rows.get(0).getInt("listed_for")).isEqualTo(7 * 86_400);
        assertThat(latestIds().stream().filter(paste.id()::equals)).hasSize(1);
    }

    @Test
    void should_change_title_body_and_expiry_and_show_the_change_in_the_list() {
        Created paste = createPublic("before", "P1D");
        Instant createdAt = Instant.parse(paste.json().getString("createdAt"));
        JsonPath changed = put(
                        paste.id(), paste.secret(), Map.of("title", "after", "body", "new body", "expiresIn", "PT1H"))
                .then()
                .statusCode(200)
                .contentType(ContentType.JSON)
                .body("title", equalTo("after"))
                .body("body", equalTo("new body"))
                .body("createdAt", equalTo(paste.json().getString("createdAt")))
                .extract()
                .jsonPath();
        Instant expiresAt = Instant.parse(changed.getString("expiresAt"));
        Instant modifiedAt = Instant.parse(changed.getString("modifiedAt"));
        assertThat(modifiedAt).isAfterOrEqualTo(createdAt);
        assertThat(expiresAt).isEqualTo(modifiedAt.plusSeconds(3600));

        Map<String, Object> item = listed(paste.id());
        assertThat(item).containsEntry("title", "after").containsEntry("expiresAt", changed.getString("expiresAt"));
        read(paste.id()).then().statusCode(200).body("title", equalTo("after")).body("body", equalTo("new body"));

        // the new expiry applies to every row of the paste: the TTLs follow it
        long pasteTtl = ttl("SELECT TTL(body) FROM %s.pastes_by_id WHERE id = ?", UUID.fromString(paste.id()));
        assertThat(pasteTtl).isBetween(3590L, 3600L);
        // the list: it moved from the 1-day listing to the 1-hour one: one row, listed until created + 1 h
        List<Row> periodRows = periodRows(paste.id(), createdAt);
        assertThat(periodRows).hasSize(1);
        assertThat(periodRows.get(0).getInt("listed_for")).isEqualTo(3600);
        assertThat(periodRows.get(0).getInt("ttl")).isBetween(3590, 3600);

        // an empty title removes it
        put(paste.id(), paste.secret(), Map.of("title", ""))
                .then()
                .statusCode(200)
                .body("title", nullValue());
        assertThat(listed(paste.id())).containsEntry("title", null);
    }

    private long ttl(String cql, Object... values) {
        Row row = session.execute(SimpleStatement.newInstance(String.format(cql, settings.keyspace()), values))
                .one();
        return row.getInt(0);
    }

    @Test
    void should_delete_a_paste_with_its_secret() {
        Created paste = createPublic("doomed", null);
        delete(paste.id(), paste.secret())
                // as making it private: the paste, the day's generation twice, the hide's count
                .then()
                .statusCode(204)
                .header("X-Partitions-Read", "5");
        problem(read(paste.id()), 404);
        assertThat(latestIds()).doesNotContain(paste.id());
        problem(delete(paste.id(), paste.secret()), 404);
    }

    @Test
    void should_refuse_changes_without_the_right_secret() {
        Created paste = createPublic("guarded", null);
        problem(put(paste.id(), "A".repeat(43), Map.of("title", "hacked")), 403)
                .body("type", equalTo("urn:cql-patterns:problem:forbidden"));
        problem(put(paste.id(), null, Map.of("title", "hacked")), 403);
        // Shaped as no secret can be: refused before the paste is read, naming the header.
        problem(delete(paste.id(), paste.secret() + "x"), 400).body("errors[0].field", equalTo("X-Paste-Secret"));
        problem(put(paste.id(), "not-the-secret", Map.of("title", "hacked")), 400)
                .body("errors[0].field", equalTo("X-Paste-Secret"));
        problem(delete(paste.id(), null), 403);
        read(paste.id()).then().statusCode(200).body("title", equalTo("guarded"));
    }

    @Test
    void should_answer_404_for_an_unknown_paste() {
        String unknown = UUID.randomUUID().toString();
        problem(read(unknown), 404).body("type", equalTo("urn:cql-patterns:problem:not-found"));
        problem(put(unknown, "A".repeat(43), Map.of("title", "x")), 404);
        problem(delete(unknown, "A".repeat(43)), 404);
        problem(read("not-a-uuid"), 400);
    }

    @Test
    void should_refuse_an_empty_or_missing_body() {
        problem(post(Map.of("body", "", "private", false)), 400).body("errors.field", hasItem("body"));
        problem(post(Map.of("title", "no body", "private", false)), 400).body("errors.field", hasItem("body"));
        problem(post(Map.of("body", "no visibility")), 400).body("errors.field", hasItem("private"));
        problem(given().contentType(ContentType.JSON).when().post("/pastes"), 400);
        Created paste = createPublic("keeps its body", null);
        problem(put(paste.id(), paste.secret(), Map.of("body", "")), 400).body("errors.field", hasItem("body"));
        problem(put(paste.id(), paste.secret(), Map.of()), 400);
    }

    @Test
    void should_refuse_a_body_over_the_configured_size() {
        String atLimit = "x".repeat(512 * 1024);
        create(Map.of("body", atLimit, "private", true));
        // between the paste limit (512 KiB) and the HTTP limit (1 MiB): the paste's own 413
        problem(post(Map.of("body", atLimit + "x", "private", true)), 413)
                .body("type", equalTo("urn:cql-patterns:problem:payload-too-large"))
                .body("errors.field", hasItem("body"));
        // 3-byte characters: under the limit in characters, over it in bytes
        problem(post(Map.of("body", "€".repeat(200_000), "private", true)), 413);
        // over the HTTP limit: the platform's 413 before the body is read
        problem(post(Map.of("body", "x".repeat(1_100_000), "private", true)), 413);
        Created paste = createPublic("stays small", null);
        problem(put(paste.id(), paste.secret(), Map.of("body", atLimit + "x")), 413);
    }

    @Test
    void should_refuse_malformed_or_negative_expiry() {
        for (String bad : List.of("tomorrow", "P1M", "7d", "PT-5M", "-PT1H", "PT0S", "PT0.5S", "P400D")) {
            problem(post(Map.of("body", "x", "private", false, "expiresIn", bad)), 400)
                    .body("errors.field", hasItem("expiresIn"));
        }
        Created paste = createPublic("expiry kept", "P1D");
        problem(put(paste.id(), paste.secret(), Map.of("expiresIn", "PT-1S")), 400)
                .body("errors.field", hasItem("expiresIn"));
        read(paste.id())
                .then()
                .statusCode(200)
                .body("expiresAt", equalTo(paste.json().getString("expiresAt")));
    }

    @Test
    void should_refuse_a_malformed_cursor_or_limit() {
        problem(latestPage(Map.of("cursor", "garbage")), 400)
                .body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
        problem(latestPage(Map.of("limit", 0)), 400);
        problem(latestPage(Map.of("limit", 501)), 400);
    }

    @Test
    void should_page_through_the_latest_public_pastes_newest_first() {
        List<String> mine = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            mine.add(
                    0, createPublic("page " + i + " " + UUID.randomUUID(), null).id());
        }
        List<String> seen = new ArrayList<>();
        List<Instant> createdAts = new ArrayList<>();
        var pages = Pages.all(200, request -> request.queryParam("limit", 2).get("/pastes"));
        for (var page : pages) {
            List<Map<String, Object>> items = page.jsonPath().getList("items");
            items.forEach(item -> {
                seen.add((String) item.get("id"));
                createdAts.add(Instant.parse((String) item.get("createdAt")));
            });
            // every page but the last is full; the last one says there is no more
            assertThat(items).hasSize(page == pages.get(pages.size() - 1) ? items.size() : 2);
        }
        assertThat(pages.get(pages.size() - 1).jsonPath().getString("next")).isNull();
        assertThat(seen).doesNotHaveDuplicates();
        assertThat(seen.subList(0, 5)).containsExactlyElementsOf(mine);
        assertThat(createdAts).isSortedAccordingTo(java.util.Comparator.reverseOrder());
        assertThat(seen).containsAll(latestIds());
    }

    @Test
    void should_end_with_one_consistent_version_when_two_clients_update_at_once() {
        for (int round = 0; round < 5; round++) {
            Created paste = createPublic("race " + round, "P1D");
            List<Map<String, Object>> changes =
                    List.of(Map.of("title", "renamed", "expiresIn", "PT2H"), Map.of("private", true));
            assertThat(Concurrently.run(
                            changes,
                            change -> put(paste.id(), paste.secret(), change).statusCode()))
                    .containsExactly(200, 200);
            // neither change is lost, and the list agrees with the paste: private, so not listed
            read(paste.id())
                    .then()
                    .statusCode(200)
                    .body("title", equalTo("renamed"))
                    .body("private", equalTo(true));
            assertThat(latestIds()).doesNotContain(paste.id());
        }

        Created paste = createPublic("contended", "P1D");
        List<Integer> statuses = Concurrently.run(List.of("writer 0", "writer 1"), title -> {
            int status = 0;
            for (int n = 0; n < 5; n++) {
                status = Math.max(
                        status,
                        put(paste.id(), paste.secret(), Map.of("title", title + " #" + n))
                                .statusCode());
            }
            return status;
        });
        assertThat(statuses).containsExactly(200, 200);
        String finalTitle =
                read(paste.id()).then().statusCode(200).extract().jsonPath().getString("title");
        assertThat(finalTitle).endsWith("#4");
        assertThat(listed(paste.id())).containsEntry("title", finalTitle);
    }

    @Test
    void should_drop_a_paste_from_read_and_list_within_seconds_of_its_expiry() throws Exception {
        Created paste = createPublic("short-lived " + UUID.randomUUID(), "PT2S");
        // created to live forever, then given two seconds: every row must follow the new expiry
        Created shortened = createPublic("shortened " + UUID.randomUUID(), null);
        put(shortened.id(), shortened.secret(), Map.of("expiresIn", "PT2S"))
                .then()
                .statusCode(200);
        for (Created p : List.of(paste, shortened)) {
            read(p.id()).then().statusCode(200);
            // Neither is listed: a paste living less than the shortest listing period (1 min) never
            // is, and the change took the shortened one off at once (LatestPastesAgedTest watches
            // listings end on the nodes' clock).
            assertThat(latestIds()).doesNotContain(p.id());
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        boolean gone;
        do {
            Thread.sleep(250);
            List<String> listed = latestIds();
            gone = true;
            for (Created p : List.of(paste, shortened)) {
                gone &= read(p.id()).then().extract().statusCode() == 404 && !listed.contains(p.id());
            }
        } while (!gone && System.nanoTime() < deadline);
        assertThat(gone)
                .as("both pastes gone from GET and from the list within 10 s")
                .isTrue();
        for (Created p : List.of(paste, shortened)) {
            problem(read(p.id()), 404);
            problem(put(p.id(), p.secret(), Map.of("title", "too late")), 404);
        }
        // and the rows themselves have expired, not just been hidden
        Thread.sleep(1_000);
        for (Created p : List.of(paste, shortened)) {
            Instant createdAt = Instant.parse(p.json().getString("createdAt"));
            assertThat(session.execute(SimpleStatement.newInstance(
                                    "SELECT * FROM " + settings.keyspace() + ".pastes_by_id WHERE id = ?",
                                    UUID.fromString(p.id())))
                            .one())
                    .isNull();
            assertThat(periodRows(p.id(), createdAt)).isEmpty();
        }
    }

    @Test
    void should_answer_created_with_the_paste_location() {
        // The path only: a Location made absolute would carry the Host header the client chose.
        var created = given().contentType(ContentType.JSON)
                .header("Host", "attacker.example:1")
                .body(Map.of("body", "x", "private", true))
                .when()
                .post("/pastes")
                .then()
                .statusCode(201);
        created.header("Location", equalTo("/pastes/" + created.extract().path("id")))
                .header("X-Partitions-Read", "1")
                .body("secret", not(equalTo(null)));
    }
}
