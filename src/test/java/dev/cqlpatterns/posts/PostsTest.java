package dev.cqlpatterns.posts;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.testsupport.Callers;
import dev.cqlpatterns.testsupport.Concurrently;
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
class PostsTest {

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    static String post(String author, String body) {
        return Callers.json(author, Map.of("body", body))
                .when()
                .post("/posts")
                .then()
                .statusCode(201)
                .body("id", notNullValue())
                .extract()
                .path("id");
    }

    static Response comment(String commenter, String post, String body) {
        return Callers.json(commenter, Map.of("body", body)).when().post("/posts/{id}/comments", post);
    }

    static Response read(String post, Integer limit, String cursor) {
        var request = given();
        if (limit != null) {
            request.queryParam("limit", limit);
        }
        if (cursor != null) {
            request.queryParam("cursor", cursor);
        }
        return request.when().get("/posts/{id}", post);
    }

    @Test
    void should_read_a_post_without_comments_in_one_partition() {
        String id = post("alice", "Query first.");
        read(id, null, null)
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "1")
                .body("id", equalTo(id))
                .body("author", equalTo("alice"))
                .body("body", equalTo("Query first."))
                .body("commentCount", equalTo(0))
                .body("postedAt", notNullValue())
                .body("comments.items", hasSize(0))
                .body("comments.next", nullValue());
    }

    @Test
    void should_page_comments_newest_first_with_the_body_each_time() {
        String id = post("alice", "Static columns are stored once.");
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            ids.add(comment("bob", id, "comment " + i)
                    .then()
                    .statusCode(201)
                    .extract()
                    .path("id"));
        }
        List<String> seen = new ArrayList<>();
        String cursor = null;
        do {
            Response page = read(id, 2, cursor);
            page.then()
                    .statusCode(200)
                    .header("X-Partitions-Read", "1")
                    .body("body", equalTo("Static columns are stored once."))
                    .body("commentCount", equalTo(5));
            seen.addAll(page.jsonPath().getList("comments.items.body"));
            cursor = page.jsonPath().getString("comments.next");
        } while (cursor != null);
        assertThat(seen).containsExactly("comment 4", "comment 3", "comment 2", "comment 1", "comment 0");
        read(id, 1, null)
                .then()
                .body("comments.items[0].id", equalTo(ids.get(4)))
                .body("comments.items[0].commenter", equalTo("bob"));
    }

    @Test
    void should_count_concurrent_comments_exactly() {
        String id = post("alice", "Race me.");
        List<Integer> statuses = Concurrently.run(
                IntStream.range(0, 8).boxed().toList(),
                i -> comment("user" + i, id, "concurrent " + i).statusCode());
        assertThat(statuses).containsOnly(201);
        read(id, 100, null).then().body("commentCount", equalTo(8)).body("comments.items", hasSize(8));
    }

    @Test
    void should_refuse_empty_and_oversized_bodies() {
        problem(Callers.json("alice", Map.of("body", "")).when().post("/posts"), 400, "body");
        problem(Callers.json("alice", Map.of("body", "x".repeat(10_001))).when().post("/posts"), 400, "body");
        String id = post("alice", "x".repeat(10_000));
        problem(comment("bob", id, ""), 400, "body");
        problem(comment("bob", id, "   "), 400);
        problem(comment("bob", id, "y".repeat(2_001)), 400);
        comment("bob", id, "y".repeat(2_000)).then().statusCode(201);
        problem(
                given().contentType(ContentType.JSON)
                        .body(Map.of("body", "anonymous"))
                        .when()
                        .post("/posts"),
                401);
    }

    @Test
    void should_answer_404_for_unknown_posts_and_400_for_bad_ids_and_cursors() {
        String unknown = "5f4dcc3b-5aa7-11ef-8000-0123456789ab";
        problem(read(unknown, null, null), 404);
        problem(comment("bob", unknown, "hello?"), 404);
        problem(read("not-a-post", null, null), 400, "id");
        problem(read(UUID.randomUUID().toString(), null, null), 400);
        problem(comment("bob", "not-a-post", "hello?"), 400);

        String id = post("alice", "Paged.");
        comment("bob", id, "one").then().statusCode(201);
        comment("bob", id, "two").then().statusCode(201);
        problem(read(id, 1, "garbage"), 400).body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
        String next = read(id, 1, null).jsonPath().getString("comments.next");
        String other = post("alice", "Other.");
        problem(read(other, 1, next), 400);
        problem(read(id, 0, null), 400);
    }
}
