package dev.cqlpatterns.courses;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import dev.cqlpatterns.testsupport.Pages;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(MovableClockProfile.class)
class CourseViewsTest {

    @Inject
    MovableClock clock;

    @AfterEach
    void back_to_system_time() {
        clock.reset();
    }

    private static String newCourse() {
        String id = "views-" + UUID.randomUUID();
        given().header("Authorization", Tokens.bearer("course-admin"))
                .contentType(ContentType.JSON)
                .body(Map.of("name", "Introduction to Node.js"))
                .when()
                .put("/courses/{id}", id)
                .then()
                .statusCode(200);
        return id;
    }

    /** Records a view at {@code at}; returns its id. */
    private String view(String courseId, String at) {
        clock.set(Instant.parse(at));
        JsonPath view = given().when()
                .post("/courses/{id}/views", courseId)
                .then()
                .statusCode(201)
                .contentType(ContentType.JSON)
                .extract()
                .jsonPath();
        assertThat(Instant.parse(view.getString("viewedAt"))).isEqualTo(Instant.parse(at));
        return view.getString("id");
    }

    private static List<String> ids(JsonPath page) {
        return page.getList("items.id");
    }

    @Test
    void should_list_views_newest_first_with_the_time_of_their_timeuuid() {
        String course = newCourse();
        String first = view(course, "2030-03-10T10:00:00Z");
        String second = view(course, "2030-03-10T10:00:01.250Z");
        String third = view(course, "2030-03-10T10:00:02Z");

        JsonPath page = given().when()
                .get("/courses/{id}/views", course)
                .then()
                .statusCode(200)
                // the registry's partition and the one day that has views
                .header("X-Partitions-Read", equalTo("2"))
                .body("next", nullValue())
                .extract()
                .jsonPath();
        assertThat(ids(page)).containsExactly(third, second, first);
        assertThat(page.getList("items.viewedAt", String.class).stream().map(Instant::parse))
                .containsExactly(
                        Instant.parse("2030-03-10T10:00:02Z"),
                        Instant.parse("2030-03-10T10:00:01.250Z"),
                        Instant.parse("2030-03-10T10:00:00Z"));
    }

    @Test
    void should_page_newest_first_across_day_buckets() {
        String course = newCourse();
        List<String> written = new ArrayList<>();
        for (String at : List.of(
                "2030-05-01T23:59:59.999Z",
                "2030-05-02T00:00:00Z",
                "2030-05-02T12:00:00Z",
                "2030-05-04T08:00:00Z",
                "2030-05-04T08:00:00.001Z")) {
            written.add(view(course, at));
        }
        clock.set(Instant.parse("2030-05-05T00:00:00Z"));

        List<String> read = new ArrayList<>();
        var pages = Pages.all(10, request -> request.queryParam("limit", 2).get("/courses/{id}/views", course));
        for (int i = 0; i < pages.size(); i++) {
            assertThat(ids(pages.get(i).jsonPath())).hasSize(i < 2 ? 2 : 1);
            read.addAll(ids(pages.get(i).jsonPath()));
        }

        assertThat(pages).hasSize(3);
        Collections.reverse(written);
        assertThat(read).containsExactlyElementsOf(written);
    }

    @Test
    void should_slice_with_from_and_to_both_included() {
        String course = newCourse();
        String t1 = view(course, "2030-07-01T10:00:00Z");
        String t2 = view(course, "2030-07-01T10:00:01Z");
        String t3 = view(course, "2030-07-01T10:00:02Z");

        assertThat(viewIds(course, Map.of("from", "2030-07-01T10:00:01Z", "to", "2030-07-01T10:00:01Z")))
                .containsExactly(t2);
        assertThat(viewIds(course, Map.of("from", "2030-07-01T10:00:00.001Z", "to", "2030-07-01T10:00:02Z")))
                .containsExactly(t3, t2);
        assertThat(viewIds(course, Map.of("to", "2030-07-01T10:00:01.999Z"))).containsExactly(t2, t1);
    }

    @Test
    void should_not_visit_days_past_the_retention() {
        String course = newCourse();
        view(course, "2030-01-01T12:00:00Z");
        String recent = view(course, "2030-06-01T12:00:00Z");

        // the first view is 151 days old, past the 90-day retention: expired, and its day not read
        assertThat(ids(views(course, Map.of("from", "2029-01-01T00:00:00Z"))
                        .then()
                        .statusCode(200)
                        .header("X-Partitions-Read", equalTo("2"))
                        .extract()
                        .jsonPath()))
                .containsExactly(recent);
    }

    @Test
    void should_answer_404_for_views_of_an_unknown_course() {
        String unknown = "no-such-course-" + UUID.randomUUID();
        problem(given().when().post("/courses/{id}/views", unknown), 404);
        problem(views(unknown, Map.of()), 404);
    }

    @Test
    void should_reject_bad_ranges_limits_and_cursors() {
        String course = newCourse();
        problem(views(course, Map.of("from", "yesterday")), 400, "from");
        problem(views(course, Map.of("to", "2030-13-01T00:00:00Z")), 400, "to");
        problem(views(course, Map.of("from", "2030-02-01T00:00:00Z", "to", "2030-01-01T00:00:00Z")), 400, "from");
        problem(views(course, Map.of("limit", 0)), 400, "limit");
        problem(views(course, Map.of("limit", 501)), 400, "limit");
        problem(views(course, Map.of("cursor", "not-a-cursor")), 400)
                .body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
        problem(given().when().post("/courses/{id}/views", "bad id"), 400, "courseId");
    }

    /** GET the views of {@code course} with {@code query}, the answer not yet checked. */
    private static Response views(String course, Map<String, ?> query) {
        return given().queryParams(query).when().get("/courses/{id}/views", course);
    }

    /** The ids of one 200 page of views of {@code course} with {@code query}. */
    private static List<String> viewIds(String course, Map<String, ?> query) {
        return ids(views(course, query).then().statusCode(200).extract().jsonPath());
    }

    @Test
    void should_refuse_a_cursor_of_another_course() {
        String course = newCourse();
        String other = newCourse();
        view(course, "2030-08-01T10:00:00Z");
        view(course, "2030-08-01T10:00:01Z");
        String next = given().queryParam("limit", 1)
                .when()
                .get("/courses/{id}/views", course)
                .then()
                .statusCode(200)
                .extract()
                .path("next");
        assertThat(next).isNotNull();
        problem(views(other, Map.of("limit", 1, "cursor", next)), 400)
                .body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
    }
}
