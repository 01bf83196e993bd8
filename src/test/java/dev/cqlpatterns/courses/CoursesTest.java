package dev.cqlpatterns.courses;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.empty;
import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ValidatableResponse;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class CoursesTest {
    private static final String AUTH = Tokens.bearer("course-admin");

    private static String newCourseId() {
        return "node-intro-" + UUID.randomUUID();
    }

    private static ValidatableResponse putCourse(String id, Object body) {
        return given().header("Authorization", AUTH)
                .contentType(ContentType.JSON)
                .body(body)
                .when()
                .put("/courses/{id}", id)
                .then();
    }

    private static ValidatableResponse putModule(String id, Object moduleId, Object body) {
        return given().header("Authorization", AUTH)
                .contentType(ContentType.JSON)
                .body(body)
                .when()
                .put("/courses/{id}/modules/{moduleId}", id, moduleId)
                .then();
    }

    @Test
    void should_keep_modules_when_the_course_is_renamed() {
        String id = newCourseId();
        putCourse(id, Map.of("name", "Introduction to Node.js"))
                .statusCode(200)
                .body("id", equalTo(id))
                .body("name", equalTo("Introduction to Node.js"));
        putModule(id, 1, Map.of("name", "Getting Started with Node.js")).statusCode(200);
        putModule(id, 2, Map.of("name", "Node.js Background")).statusCode(200);

        putCourse(id, Map.of("name", "Node.js in Depth")).statusCode(200);

        getCourse(id)
                .statusCode(200)
                .header("X-Partitions-Read", equalTo("1"))
                .body("name", equalTo("Node.js in Depth"))
                .body("modules.id", contains(1, 2))
                .body("modules.name", contains("Getting Started with Node.js", "Node.js Background"));
    }

    @Test
    void should_keep_the_course_name_when_a_module_is_written() {
        String id = newCourseId();
        putCourse(id, Map.of("name", "Introduction to Node.js")).statusCode(200);
        putModule(id, 2, Map.of("name", "Node.js Background"))
                .statusCode(200)
                .body("id", equalTo(2))
                .body("name", equalTo("Node.js Background"));
        // the seed's UPDATE of a module: the course name "remains the same"
        putModule(id, 2, Map.of("name", "Events and Streams")).statusCode(200);

        getCourse(id)
                .statusCode(200)
                .body("name", equalTo("Introduction to Node.js"))
                .body("modules.name", contains("Events and Streams"));
    }

    @Test
    void should_list_modules_in_module_id_order_in_one_partition_read() {
        String id = newCourseId();
        putCourse(id, Map.of("name", "Introduction to Node.js")).statusCode(200);
        for (int module : new int[] {10, 3, 1000, 7, 1}) {
            putModule(id, module, Map.of("name", "Module " + module)).statusCode(200);
        }
        getCourse(id)
                .statusCode(200)
                .header("X-Partitions-Read", equalTo("1"))
                .header("X-Statements", equalTo("1"))
                .body("id", equalTo(id))
                .body("modules.id", contains(1, 3, 7, 10, 1000));
    }

    @Test
    void should_answer_a_course_without_modules_with_an_empty_list() {
        String id = newCourseId();
        putCourse(id, Map.of("name", "Nothing yet")).statusCode(200);
        getCourse(id).statusCode(200).body("name", equalTo("Nothing yet")).body("modules", empty());
    }

    @Test
    void should_delete_a_module_and_keep_the_course() {
        String id = newCourseId();
        putCourse(id, Map.of("name", "Introduction to Node.js")).statusCode(200);
        putModule(id, 1, Map.of("name", "One")).statusCode(200);
        putModule(id, 2, Map.of("name", "Two")).statusCode(200);

        deleteModule(id, 1).statusCode(204);
        // deleting it again is the same success: a retried delete must not fail
        deleteModule(id, 1).statusCode(204);

        getCourse(id)
                .statusCode(200)
                .body("name", equalTo("Introduction to Node.js"))
                .body("modules.id", contains(2));
        deleteModule(id, 2).statusCode(204);
        getCourse(id)
                .statusCode(200)
                .body("name", equalTo("Introduction to Node.js"))
                .body("modules", empty());
    }

    @Test
    void should_answer_404_for_an_unknown_course() {
        problem(getCourse(newCourseId()), 404)
                .body("type", equalTo("urn:cql-patterns:problem:not-found"))
                .header("X-Partitions-Read", equalTo("1"));
    }

    @Test
    void should_answer_404_for_a_module_of_an_unknown_course() {
        String id = newCourseId();
        problem(putModule(id, 1, Map.of("name", "Orphan")), 404);
        // and nothing was written: the course is still unknown
        problem(getCourse(id), 404);
    }

    @Test
    void should_reject_a_module_id_that_is_not_a_positive_integer() {
        String id = newCourseId();
        putCourse(id, Map.of("name", "Introduction to Node.js")).statusCode(200);
        for (String bad : new String[] {"abc", "1.5", "0", "-1", "1001", "99999999999"}) {
            problem(putModule(id, bad, Map.of("name", "Bad")), 400, "moduleId");
            problem(deleteModule(id, bad), 400, "moduleId");
        }
    }

    @Test
    void should_reject_a_blank_course_name() {
        String id = newCourseId();
        problem(putCourse(id, Map.of("name", "  ")), 400, "name");
        problem(putCourse(id, Map.of()), 400, "name");
        getCourse(id).statusCode(404);
    }

    @Test
    void should_reject_a_blank_module_name() {
        String id = newCourseId();
        putCourse(id, Map.of("name", "Introduction to Node.js")).statusCode(200);
        problem(putModule(id, 1, Map.of("name", "")), 400, "name");
    }

    @Test
    void should_reject_a_malformed_course_id() {
        problem(putCourse("has space", Map.of("name", "x")), 400, "courseId");
        problem(getCourse("-starts-with-dash"), 400, "courseId");
        problem(getCourse("x".repeat(101)), 400, "courseId");
    }

    @Test
    void should_require_a_bearer_token_to_change_the_catalog() {
        String id = newCourseId();
        problem(
                given().contentType(ContentType.JSON)
                        .body(Map.of("name", "x"))
                        .when()
                        .put("/courses/{id}", id),
                401);
        problem(
                given().contentType(ContentType.JSON)
                        .body(Map.of("name", "x"))
                        .when()
                        .put("/courses/{id}/modules/1", id),
                401);
        problem(given().when().delete("/courses/{id}/modules/1", id), 401);
    }

    private static ValidatableResponse deleteModule(String id, Object moduleId) {
        return given().header("Authorization", AUTH)
                .when()
                .delete("/courses/{id}/modules/{m}", id, moduleId)
                .then();
    }

    private static ValidatableResponse getCourse(String id) {
        return given().when().get("/courses/{id}", id).then();
    }
}
