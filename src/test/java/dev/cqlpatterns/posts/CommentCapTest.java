package dev.cqlpatterns.posts;

import static dev.cqlpatterns.posts.PostsTest.comment;
import static dev.cqlpatterns.posts.PostsTest.post;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.testsupport.SmallLimitsProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import org.junit.jupiter.api.Test;

/** With cql-patterns.posts.max-comments = 3, the partition of a post stops growing at 3 comments. */
@QuarkusTest
@TestProfile(SmallLimitsProfile.class)
class CommentCapTest {

    @Test
    void should_refuse_the_comment_over_the_cap() {
        String id = post("alice", "Capped.");
        for (int i = 0; i < 3; i++) {
            comment("bob", id, "comment " + i).then().statusCode(201);
        }
        problem(comment("bob", id, "one too many"), 409);
        given().when().get("/posts/{id}", id).then().statusCode(200).body("commentCount", equalTo(3));
    }
}
