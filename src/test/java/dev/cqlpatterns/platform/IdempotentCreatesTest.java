package dev.cqlpatterns.platform;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.messenger.Conversations;
import dev.cqlpatterns.messenger.CreateConversation;
import dev.cqlpatterns.pastebin.CreatePaste;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.posts.AddComment;
import dev.cqlpatterns.posts.CreatePost;
import dev.cqlpatterns.testsupport.ConditionalWriteFaults;
import dev.cqlpatterns.testsupport.KeyClaims;
import dev.cqlpatterns.testsupport.MembershipRows;
import dev.cqlpatterns.testsupport.SignUp;
import dev.cqlpatterns.testsupport.StoredRows;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every create is safe to retry with an Idempotency-Key (platform.idempotency): the same key and
 * request answer the same status and body and store one resource; the same key with another
 * request is a 409; a first attempt that stopped right after claiming its key (a 503 at the batch
 * log, a crash) is finished by the retry under the planned id.
 */
@QuarkusTest
class IdempotentCreatesTest {
    private static final String KEY = "Idempotency-Key";
    private static final String REPLAYED = "Idempotent-Replayed";

    @Inject
    StoredRows rows;

    @Inject
    KeyClaims claims;

    @Inject
    ConditionalWriteFaults faults;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    /** A first create of an untitled conversation of {@code members} under {@code key} claimed it, planned as {@code id}, and stopped. */
    private void conversationClaimLeft(String creator, String key, Set<String> members, UUID id, Instant createdAt) {
        claims.leftBy(
                CreateConversation.OPERATION,
                creator,
                key,
                new CreateConversation.Fingerprint(members, null),
                new CreateConversation.Plan(id, createdAt));
    }

    private static String key() {
        return UUID.randomUUID().toString();
    }

    private static String user(String name) {
        return SignUp.user(name + "-" + UUID.randomUUID().toString().substring(0, 8));
    }

    private static RequestSpecification as(String username) {
        return given().header("Authorization", Tokens.bearer(username));
    }

    private static ExtractableResponse<Response> post(
            RequestSpecification request, String key, Object body, String path, Object... params) {
        return request.header(KEY, key)
                .contentType(ContentType.JSON)
                .body(body)
                .when()
                .post(path, params)
                .then()
                .extract();
    }

    private static void sameAnswer(ExtractableResponse<Response> first, ExtractableResponse<Response> retry) {
        assertThat(first.header(REPLAYED)).isNull();
        assertThat(retry.header(REPLAYED)).isEqualTo("true");
        assertThat(retry.statusCode()).isEqualTo(first.statusCode());
        assertThat(retry.jsonPath().getMap("")).isEqualTo(first.jsonPath().getMap(""));
        assertThat(retry.header("Location")).isEqualTo(first.header("Location"));
    }

    private static void conflict(ExtractableResponse<Response> answer) {
        assertThat(answer.statusCode()).isEqualTo(409);
        assertThat(answer.contentType()).startsWith(Problem.MEDIA_TYPE);
        assertThat(answer.jsonPath().getString("detail")).contains(KEY);
    }

    /**
     * The paste row's conditional write commits and ends with an unknown outcome (every coordinator
     * timed out), or commits and is answered "not applied" with its own row: a serial read
     * settles it, and the first attempt gets 201 with a paste that reads back.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void should_answer_201_to_a_paste_whose_write_outcome_was_learnt_by_reading_it(boolean unknown) {
        faults.injectCommittedUntold("pastes_by_id", unknown);
        ExtractableResponse<Response> created;
        try {
            created = post(given(), key(), Map.of("body", "learnt " + key(), "private", true), "/pastes");
            assertThat(faults.delivered("pastes_by_id")).isTrue();
        } finally {
            faults.clearFaults();
        }
        assertThat(created.statusCode()).as(created.body().asString()).isEqualTo(201);
        given().header("X-Paste-Secret", created.<String>path("secret"))
                .when()
                .get("/pastes/{id}", created.<String>path("id"))
                .then()
                .statusCode(200);
    }

    @Test
    void should_replay_a_paste_with_its_secret_and_store_and_list_it_once() {
        String key = key();
        Map<String, Object> body = Map.of("body", "once " + key, "private", false, "expiresIn", "PT1H");
        ExtractableResponse<Response> first = post(given(), key, body, "/pastes");
        assertThat(first.statusCode()).isEqualTo(201);
        ExtractableResponse<Response> retry = post(given(), key, body, "/pastes");
        sameAnswer(first, retry);
        String id = first.path("id");
        String secret = first.path("secret");

        assertThat(rows.execute("SELECT id FROM pastes_by_id WHERE id = ?", UUID.fromString(id)))
                .hasSize(1);
        Instant created = Instant.parse(first.path("createdAt"));
        // Lasting an hour: listed for an hour.
        assertThat(rows.execute(
                        "SELECT id FROM latest_public_pastes_by_period WHERE day = ? AND listed_for = 3600 "
                                + "AND created_at = ?",
                        Granularity.DAY.key(created),
                        created))
                .extracting(r -> r.getUuid("id").toString())
                .containsExactly(id);
        conflict(post(given(), key, Map.of("body", "another paste", "private", false), "/pastes"));

        // The key row holds neither the key nor the secret in a form a reader of the table can use.
        Row stored = claims.row(CreatePaste.OPERATION, "", key).orElseThrow();
        String all = clear(stored.getByteBuffer("key_hash"))
                + clear(stored.getByteBuffer("plan"))
                + clear(stored.getByteBuffer("fingerprint"));
        assertThat(all)
                .doesNotContain(secret)
                .doesNotContain(key)
                .doesNotContain(id)
                .doesNotContain("once");
        assertThat(stored.getBoolean("completed")).isTrue();
        // The secret replayed is the paste's: it deletes it.
        given().header("X-Paste-Secret", (String) retry.path("secret"))
                .when()
                .delete("/pastes/{id}", id)
                .then()
                .statusCode(204);
    }

    /**
     * The key's claim commits and is answered "not applied" with its own row, or ends with an
     * unknown outcome after committing: a serial read finds this attempt's own sealed plan, so the
     * create goes on as the first one (201, not a replay), and a retry replays it.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void should_take_its_own_key_claim_learnt_by_reading_it_as_the_first_attempt(boolean unknown) {
        String key = key();
        Map<String, Object> body = Map.of("body", "claimed " + key, "private", true, "expiresIn", "PT1H");
        faults.injectCommittedUntold("idempotency_keys", unknown);
        ExtractableResponse<Response> first;
        try {
            first = post(given(), key, body, "/pastes");
        } finally {
            faults.clearFaults();
        }
        assertThat(first.statusCode()).isEqualTo(201);
        sameAnswer(first, post(given(), key, body, "/pastes"));
        assertThat(claims.row(CreatePaste.OPERATION, "", key).orElseThrow().getBoolean("completed"))
                .isTrue();
    }

    @Test
    void should_finish_a_paste_whose_first_attempt_stopped_after_claiming_its_key() {
        String key = key();
        UUID id = UUID.randomUUID();
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        claims.leftBy(
                CreatePaste.OPERATION,
                "",
                key,
                new CreatePaste.Fingerprint(null, "half done", false, Duration.ofHours(1)),
                new CreatePaste.Plan(
                        id,
                        "the-planned-secret-of-43-characters-A-Za-z0",
                        now,
                        now.plus(Duration.ofHours(1)),
                        ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now())));

        ExtractableResponse<Response> retry =
                post(given(), key, Map.of("body", "half done", "private", false, "expiresIn", "PT1H"), "/pastes");
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.header(REPLAYED)).isEqualTo("true");
        assertThat(retry.<String>path("id")).isEqualTo(id.toString());
        assertThat(retry.<String>path("secret")).isEqualTo("the-planned-secret-of-43-characters-A-Za-z0");
        given().when().get("/pastes/{id}", id).then().statusCode(200).body("body", equalTo("half done"));
        given().queryParam("limit", 500)
                .when()
                .get("/pastes")
                .then()
                .statusCode(200)
                .body("items.findAll { it.id == '" + id + "' }.size()", equalTo(1));
        given().header("X-Paste-Secret", "the-planned-secret-of-43-characters-A-Za-z0")
                .when()
                .delete("/pastes/{id}", id)
                .then()
                .statusCode(204);
    }

    @Test
    void should_replay_a_group_conversation_and_store_it_once() {
        String alice = user("alice");
        List<String> others = List.of(user("bob"), user("carol"));
        String key = key();
        Map<String, Object> body = Map.of("members", others, "title", "Trip");
        ExtractableResponse<Response> first = post(as(alice), key, body, "/conversations");
        assertThat(first.statusCode()).isEqualTo(201);
        sameAnswer(first, post(as(alice), key, body, "/conversations"));
        String id = first.path("id");
        assertThat(rows.execute("SELECT id FROM conversations WHERE id = ?", UUID.fromString(id)))
                .hasSize(1);
        // One conversation in the creator's inbox, not two.
        as(alice).when().get("/inbox").then().statusCode(200).body("items.size()", equalTo(1));
        conflict(post(as(alice), key, Map.of("members", others, "title", "Another trip"), "/conversations"));
        // Keys belong to their caller: bob's same key is another create.
        ExtractableResponse<Response> bobs =
                post(as(others.get(0)), key, Map.of("members", List.of(alice, others.get(1))), "/conversations");
        assertThat(bobs.statusCode()).isEqualTo(201);
        assertThat(bobs.header(REPLAYED)).isNull();
        assertThat(bobs.<String>path("id")).isNotEqualTo(id);
    }

    @Test
    void should_replay_a_direct_conversation_with_its_first_status() {
        String alice = user("alice");
        String bob = user("bob");
        String key = key();
        Map<String, Object> body = Map.of("members", List.of(bob));
        ExtractableResponse<Response> first = post(as(alice), key, body, "/conversations");
        assertThat(first.statusCode()).isEqualTo(201);
        sameAnswer(first, post(as(alice), key, body, "/conversations"));
    }

    /**
     * A 1:1 create of a conversation that exists answers 200; its retry replays that 200 with the header, and
     * the contract says so for the 200 as for the 201, so a client knows a replay from either.
     */
    @Test
    void should_replay_a_direct_conversation_that_existed_and_declare_the_replay_on_its_200() {
        String alice = user("alice");
        String bob = user("bob");
        Map<String, Object> body = Map.of("members", List.of(bob));
        assertThat(post(as(alice), key(), body, "/conversations").statusCode()).isEqualTo(201);
        String key = key();
        ExtractableResponse<Response> existed = post(as(alice), key, body, "/conversations");
        assertThat(existed.statusCode()).isEqualTo(200);
        sameAnswer(existed, post(as(alice), key, body, "/conversations"));

        Map<String, Object> headers = given().queryParam("format", "json")
                .when()
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getMap("paths.'/conversations'.post.responses.'200'.headers");
        assertThat(headers)
                .as("headers of POST /conversations' 200 in the contract")
                .containsKey(REPLAYED);
    }

    /**
     * A 1:1 create whose first attempt claimed its key and created the conversation, then died (a
     * 503 before its member rows): the retry with the same key is the request that created it, 201.
     */
    @Test
    void should_answer_201_to_the_retry_of_a_direct_conversation_whose_first_attempt_created_it() {
        String alice = user("alice");
        String bob = user("bob");
        String key = key();
        Set<String> members = new TreeSet<>(List.of(alice, bob));
        UUID id = Conversations.directId(alice, bob);
        Instant createdAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        conversationClaimLeft(alice, key, members, id, createdAt);
        rows.execute(
                "INSERT INTO conversations (id, members, title, direct, created_by, created_at) VALUES (?, ?, null, "
                        + "true, ?, ?) IF NOT EXISTS",
                id,
                members,
                alice,
                createdAt);

        ExtractableResponse<Response> retry = post(as(alice), key, Map.of("members", List.of(bob)), "/conversations");
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.<String>path("id")).isEqualTo(id.toString());
        // Another request of the same pair, without that key, is told it existed.
        assertThat(post(as(alice), key(), Map.of("members", List.of(bob)), "/conversations")
                        .statusCode())
                .isEqualTo(200);
        as(bob).when().get("/inbox").then().statusCode(200).body("items.size()", equalTo(1));
    }

    /**
     * The 1:1 insert commits and is answered "not applied" with its own row, or ends with an
     * unknown outcome after committing: a serial read settles it, and the creator gets 201.
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void should_answer_201_to_a_direct_conversation_whose_insert_outcome_was_learnt_by_reading_it(boolean unknown) {
        String alice = user("alice");
        String bob = user("bob");
        faults.injectCommittedUntold("conversations", unknown);
        try {
            assertThat(post(as(alice), key(), Map.of("members", List.of(bob)), "/conversations")
                            .statusCode())
                    .isEqualTo(201);
        } finally {
            faults.clearFaults();
        }
        assertThat(post(as(bob), key(), Map.of("members", List.of(alice)), "/conversations")
                        .statusCode())
                .isEqualTo(200);
    }

    @Test
    void should_finish_a_group_conversation_whose_first_attempt_stopped_after_claiming_its_key() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String key = key();
        UUID id = UUID.randomUUID();
        Set<String> members = new TreeSet<>(List.of(alice, bob, carol));
        Instant createdAt = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        conversationClaimLeft(alice, key, members, id, createdAt);
        // ... and after the first of its inbox writes (bob's summary and membership), before the conversation row.
        long micros = ChronoUnit.MICROS.between(Instant.EPOCH, createdAt);
        rows.execute(
                "INSERT INTO inbox_by_user (username, kind, conversation_id, message_id, direct, joined_at) "
                        + "VALUES (?, 0, ?, ?, false, ?) USING TIMESTAMP ?",
                bob,
                id,
                new UUID(0x1000L, 0x8000000000000000L),
                createdAt,
                micros);
        MembershipRows.write(rows, bob, id, alice, createdAt);
        as(bob).when().get("/conversations/{id}", id).then().statusCode(404);

        ExtractableResponse<Response> retry =
                post(as(alice), key, Map.of("members", List.of(bob, carol)), "/conversations");
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.header(REPLAYED)).isEqualTo("true");
        assertThat(retry.<String>path("id")).isEqualTo(id.toString());
        as(carol)
                .when()
                .get("/conversations/{id}", id)
                .then()
                .statusCode(200)
                .body("members", equalTo(List.copyOf(members)));
        // What one clean create leaves: every member's inbox lists it once, each other member is charged once.
        for (String member : members) {
            as(member)
                    .when()
                    .get("/inbox")
                    .then()
                    .statusCode(200)
                    .body("items.size()", equalTo(1))
                    .body("items[0].conversationId", equalTo(id.toString()))
                    .body("items[0].title", equalTo(null));
            assertThat(MembershipRows.addedBy(rows, member, id))
                    .isEqualTo(member.equals(alice) ? List.of() : List.of(alice));
        }
        assertThat(rows.execute("SELECT created_by, created_at, direct FROM conversations WHERE id = ?", id))
                .singleElement()
                .satisfies(row -> {
                    assertThat(row.getString("created_by")).isEqualTo(alice);
                    assertThat(row.getInstant("created_at")).isEqualTo(createdAt);
                    assertThat(row.getBoolean("direct")).isFalse();
                });
    }

    /**
     * A group create whose writes all landed but whose key was not marked completed (a 503 at the
     * last write) is written again by the keyed retry, at the plan's write timestamp: a member who
     * left in between stays out, one added in between stays in.
     */
    @Test
    void should_not_undo_a_leave_or_a_join_when_a_group_create_is_retried_later() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String dave = user("dave");
        String key = key();
        Map<String, Object> body = Map.of("members", List.of(bob, carol), "title", "Retried late");
        ExtractableResponse<Response> first = post(as(alice), key, body, "/conversations");
        assertThat(first.statusCode()).isEqualTo(201);
        String id = first.path("id");
        as(carol)
                .when()
                .delete("/conversations/{id}/members/{u}", id, carol)
                .then()
                .statusCode(204);
        as(bob).when().put("/conversations/{id}/members/{u}", id, dave).then().statusCode(200);
        rows.execute(
                "UPDATE idempotency_keys SET completed = false WHERE key_hash = ?",
                ByteBuffer.wrap(dev.cqlpatterns.platform.idempotency.ScopedKeys.rowKey(
                        CreateConversation.OPERATION, alice, key)));

        ExtractableResponse<Response> retry = post(as(alice), key, body, "/conversations");
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.<String>path("id")).isEqualTo(id);
        as(alice)
                .when()
                .get("/conversations/{id}", id)
                .then()
                .statusCode(200)
                .body("members", equalTo(List.copyOf(new TreeSet<>(List.of(alice, bob, dave)))));
        as(carol).when().get("/inbox").then().statusCode(200).body("items.size()", equalTo(0));
        as(carol).when().get("/conversations/{id}", id).then().statusCode(404);
    }

    @Test
    void should_replay_a_post_and_a_comment_and_store_each_once() {
        String alice = user("alice");
        String key = key();
        ExtractableResponse<Response> first = post(as(alice), key, Map.of("body", "Query first."), "/posts");
        assertThat(first.statusCode()).isEqualTo(201);
        sameAnswer(first, post(as(alice), key, Map.of("body", "Query first."), "/posts"));
        conflict(post(as(alice), key, Map.of("body", "Tables second."), "/posts"));
        String post = first.path("id");
        assertThat(rows.execute(
                        "SELECT post_id FROM post_and_comments WHERE post_id = ? LIMIT 1", UUID.fromString(post)))
                .hasSize(1);

        String bob = user("bob");
        ExtractableResponse<Response> comment =
                post(as(bob), key, Map.of("body", "Agreed."), "/posts/{id}/comments", post);
        assertThat(comment.statusCode()).isEqualTo(201);
        sameAnswer(comment, post(as(bob), key, Map.of("body", "Agreed."), "/posts/{id}/comments", post));
        conflict(post(as(bob), key, Map.of("body", "Disagreed."), "/posts/{id}/comments", post));
        given().when()
                .get("/posts/{id}", post)
                .then()
                .statusCode(200)
                .body("commentCount", equalTo(1))
                .body("comments.items.size()", equalTo(1));
    }

    @Test
    void should_finish_a_post_and_a_comment_whose_first_attempts_stopped_after_claiming_their_keys() {
        String alice = user("alice");
        String key = key();
        UUID post = com.datastax.oss.driver.api.core.uuid.Uuids.timeBased();
        claims.leftBy(
                CreatePost.OPERATION,
                alice,
                key,
                new CreatePost.NewPost("Half posted."),
                new CreatePost.Plan(post, ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now())));
        ExtractableResponse<Response> retry = post(as(alice), key, Map.of("body", "Half posted."), "/posts");
        assertThat(retry.statusCode()).isEqualTo(201);
        assertThat(retry.header(REPLAYED)).isEqualTo("true");
        assertThat(retry.<String>path("id")).isEqualTo(post.toString());

        String bob = user("bob");
        UUID comment = com.datastax.oss.driver.api.core.uuid.Uuids.timeBased();
        claims.leftBy(
                "POST /posts/" + post + "/comments",
                bob,
                key,
                new AddComment.NewComment("Half said."),
                new AddComment.Plan(comment));
        ExtractableResponse<Response> said =
                post(as(bob), key, Map.of("body", "Half said."), "/posts/{id}/comments", post);
        assertThat(said.statusCode()).isEqualTo(201);
        assertThat(said.<String>path("id")).isEqualTo(comment.toString());
        // Once more: the comment is there now, and is not written (or counted) twice.
        post(as(bob), key, Map.of("body", "Half said."), "/posts/{id}/comments", post);
        given().when()
                .get("/posts/{id}", post)
                .then()
                .statusCode(200)
                .body("body", equalTo("Half posted."))
                .body("commentCount", equalTo(1))
                .body("comments.items.size()", equalTo(1));
    }

    @Test
    void should_create_twice_without_a_key() {
        String alice = user("alice");
        String one = as(alice)
                .contentType(ContentType.JSON)
                .body(Map.of("body", "same"))
                .when()
                .post("/posts")
                .then()
                .statusCode(201)
                .header(REPLAYED, nullValue())
                .extract()
                .path("id");
        String two = createdId(as(alice)
                .contentType(ContentType.JSON)
                .body(Map.of("body", "same"))
                .when()
                .post("/posts"));
        assertThat(one).isNotEqualTo(two);
    }

    /** A blob as text, and as base64, so a test can look for a string in either form. */
    private static String clear(ByteBuffer blob) {
        byte[] bytes = new byte[blob.remaining()];
        blob.duplicate().get(bytes);
        return new String(bytes, StandardCharsets.ISO_8859_1)
                + Base64.getEncoder().encodeToString(bytes)
                + Base64.getUrlEncoder().encodeToString(bytes);
    }
}
