package dev.cqlpatterns.courses;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.contains;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.testsupport.Callers;
import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, ownership (OWASP API1/API5): a course belongs to the caller who created it; only they
 * rename it and write or delete its modules. Anyone else gets 403 and nothing stored changes.
 */
@QuarkusTest
class CourseOwnershipTest {

    @Inject
    StoredRows stored;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    static String newCourseId() {
        return "owned-" + UUID.randomUUID();
    }

    static Response putCourse(String caller, String id, String name) {
        return Callers.json(caller, Map.of("name", name)).when().put("/courses/{id}", id);
    }

    static Response putModule(String caller, String id, int module, String name) {
        return Callers.json(caller, Map.of("name", name)).when().put("/courses/{id}/modules/{m}", id, module);
    }

    static Response deleteModule(String caller, String id, int module) {
        return Callers.as(caller).when().delete("/courses/{id}/modules/{m}", id, module);
    }

    static void assertCourse(String id, String name, String owner, List<String> modules) {
        given().when()
                .get("/courses/{id}", id)
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "1")
                .body("name", equalTo(name))
                .body("owner", equalTo(owner))
                .body("modules.name", equalTo(modules));
    }

    @Test
    void should_forbid_renaming_another_users_course() {
        String id = newCourseId();
        putCourse("ada", id, "Data Modelling").then().statusCode(200).body("owner", equalTo("ada"));

        problem(putCourse("mallory", id, "Pwned"), 403).body("type", equalTo("urn:cql-patterns:problem:forbidden"));
        assertCourse(id, "Data Modelling", "ada", List.of());

        putCourse("ada", id, "Data Modelling in Depth").then().statusCode(200).body("owner", equalTo("ada"));
        assertCourse(id, "Data Modelling in Depth", "ada", List.of());
    }

    @Test
    void should_forbid_writing_or_deleting_the_modules_of_another_users_course() {
        String id = newCourseId();
        putCourse("ada", id, "Data Modelling").then().statusCode(200);
        putModule("ada", id, 1, "Partitions").then().statusCode(200);

        problem(putModule("mallory", id, 1, "Pwned"), 403);
        problem(putModule("mallory", id, 2, "Spam"), 403);
        problem(deleteModule("mallory", id, 1), 403);
        // Also for a module that is not there: the answer does not depend on the modules.
        problem(deleteModule("mallory", id, 3), 403);
        assertCourse(id, "Data Modelling", "ada", List.of("Partitions"));

        putModule("ada", id, 2, "Clustering").then().statusCode(200);
        deleteModule("ada", id, 1).then().statusCode(204);
        assertCourse(id, "Data Modelling", "ada", List.of("Clustering"));
    }

    @Test
    void should_answer_404_for_the_modules_of_an_unknown_course() {
        String id = newCourseId();
        problem(putModule("ada", id, 1, "Orphan"), 404);
        problem(deleteModule("ada", id, 1), 404);
        given().when().get("/courses/{id}", id).then().statusCode(404);
    }

    @Test
    void should_give_a_new_course_to_exactly_one_of_two_racing_creators() {
        for (int round = 0; round < 3; round++) {
            String id = newCourseId();
            List<String> callers = List.of("bea", "cid");
            List<Integer> statuses = Concurrently.run(
                    callers, c -> putCourse(c, id, "Course of " + c).statusCode());
            assertThat(statuses).containsExactlyInAnyOrder(200, 403);
            String winner = callers.get(statuses.indexOf(200));
            assertCourse(id, "Course of " + winner, winner, List.of());
        }
    }

    @Test
    void should_let_the_first_writer_claim_a_course_from_before_owners() {
        String id = newCourseId();
        writeCourseWithoutOwner(id, "Legacy", "Old module");
        given().when().get("/courses/{id}", id).then().statusCode(200).body("owner", nullValue());

        putModule("dora", id, 2, "New module").then().statusCode(200);
        problem(putCourse("mallory", id, "Pwned"), 403);
        problem(deleteModule("mallory", id, 1), 403);
        assertCourse(id, "Legacy", "dora", List.of("Old module", "New module"));

        // Two callers claiming one unowned course at once: one owns it, the other is refused.
        for (int round = 0; round < 3; round++) {
            String raced = newCourseId();
            writeCourseWithoutOwner(raced, "Legacy", "Old module");
            List<String> callers = List.of("bea", "cid");
            List<Integer> statuses = Concurrently.run(
                    callers, c -> putCourse(c, raced, "Renamed by " + c).statusCode());
            assertThat(statuses).containsExactlyInAnyOrder(200, 403);
            String winner = callers.get(statuses.indexOf(200));
            given().when()
                    .get("/courses/{id}", raced)
                    .then()
                    .statusCode(200)
                    .body("owner", equalTo(winner))
                    .body("name", equalTo("Renamed by " + winner))
                    .body("modules.id", contains(1));
        }
    }

    /** A course as stored before cql/023_course_owner.cql: a name and a module, no owner. */
    private void writeCourseWithoutOwner(String id, String name, String module) {
        stored.execute("INSERT INTO courses (id, name) VALUES (?, ?)", id, name);
        stored.execute("INSERT INTO courses (id, module_id, module_name) VALUES (?, ?, ?)", id, 1, module);
    }
}
