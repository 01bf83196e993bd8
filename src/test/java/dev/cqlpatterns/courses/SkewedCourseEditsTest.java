package dev.cqlpatterns.courses;

import static dev.cqlpatterns.courses.CourseOwnershipTest.assertCourse;
import static dev.cqlpatterns.courses.CourseOwnershipTest.deleteModule;
import static dev.cqlpatterns.courses.CourseOwnershipTest.newCourseId;
import static dev.cqlpatterns.courses.CourseOwnershipTest.putCourse;
import static dev.cqlpatterns.courses.CourseOwnershipTest.putModule;

import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * An owner's changes to a course served by replicas whose clocks differ: one replica's clock is
 * moved by {@link #SKEW} for the request it serves, which reaches every write timestamp it makes
 * (WriteTimestamps). Each change must land after the one before it (cql/053).
 */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
class SkewedCourseEditsTest {
    private static final Duration SKEW = Duration.ofSeconds(30);

    @Inject
    MovableClock clock;

    @AfterEach
    void realTime() {
        clock.reset();
    }

    @Test
    void should_rename_after_a_rename_served_by_a_replica_whose_clock_is_ahead() {
        String id = newCourseId();
        putCourse("ada", id, "Data Modelling").then().statusCode(200);
        clock.skewedBy(
                SKEW, () -> putCourse("ada", id, "Data Modelling II").then().statusCode(200));

        putCourse("ada", id, "Data Modelling III").then().statusCode(200);

        assertCourse(id, "Data Modelling III", "ada", List.of());
    }

    @Test
    void should_rename_right_after_the_create_on_a_replica_whose_clock_is_behind() {
        String id = newCourseId();
        putCourse("ada", id, "Data Modelling").then().statusCode(200);

        clock.skewedBy(
                SKEW.negated(),
                () -> putCourse("ada", id, "Data Modelling II").then().statusCode(200));

        assertCourse(id, "Data Modelling II", "ada", List.of());
    }

    @Test
    void should_delete_a_module_written_by_a_replica_whose_clock_is_ahead() {
        String id = newCourseId();
        putCourse("ada", id, "Data Modelling").then().statusCode(200);
        clock.skewedBy(SKEW, () -> putModule("ada", id, 1, "Keys").then().statusCode(200));

        deleteModule("ada", id, 1).then().statusCode(204);

        assertCourse(id, "Data Modelling", "ada", List.of());
    }

    @Test
    void should_write_a_module_again_after_a_delete_served_by_a_replica_whose_clock_is_ahead() {
        String id = newCourseId();
        putCourse("ada", id, "Data Modelling").then().statusCode(200);
        putModule("ada", id, 1, "Keys").then().statusCode(200);
        clock.skewedBy(SKEW, () -> deleteModule("ada", id, 1).then().statusCode(204));

        putModule("ada", id, 1, "Keys, again").then().statusCode(200);

        assertCourse(id, "Data Modelling", "ada", List.of("Keys, again"));
    }
}
