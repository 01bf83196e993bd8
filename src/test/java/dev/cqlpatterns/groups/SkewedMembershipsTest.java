package dev.cqlpatterns.groups;

import static dev.cqlpatterns.groups.GroupMembersTest.createUser;
import static dev.cqlpatterns.groups.GroupMembersTest.join;
import static dev.cqlpatterns.groups.GroupMembersTest.latest;
import static dev.cqlpatterns.groups.GroupMembersTest.leave;
import static dev.cqlpatterns.groups.GroupMembersTest.members;
import static dev.cqlpatterns.groups.GroupMembersTest.unique;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Joins and leaves of a group served by replicas whose clocks differ: one replica's clock is moved by
 * {@link #SKEW} for the request it serves, which reaches every write timestamp it makes
 * (WriteTimestamps). A leave right after a join, or a join right after a leave, must land in the
 * order made.
 */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
class SkewedMembershipsTest {
    private static final Duration SKEW = Duration.ofSeconds(30);

    @Inject
    MovableClock clock;

    @AfterEach
    void realTime() {
        clock.reset();
    }

    private static List<String> listed(String group) {
        return members(group, null, null)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.username");
    }

    private static List<String> latestListed(String group) {
        return latest(group, Map.of())
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.username");
    }

    @Test
    void should_leave_on_a_replica_whose_clock_is_behind_the_one_that_served_the_join() {
        String group = unique("skew-leave-");
        String alice = unique("alice-");
        createUser(alice, 30);
        join(alice, group, alice).then().statusCode(201);

        clock.skewedBy(SKEW.negated(), () -> leave(alice, group, alice).then().statusCode(204));

        assertThat(listed(group)).isEmpty();
        assertThat(latestListed(group)).isEmpty();
        join(alice, group, alice).then().statusCode(201);
    }

    @Test
    void should_join_again_right_after_a_leave_served_by_a_replica_whose_clock_is_ahead() {
        String group = unique("skew-rejoin-");
        String alice = unique("alice-");
        createUser(alice, 30);
        join(alice, group, alice).then().statusCode(201);
        clock.skewedBy(SKEW, () -> leave(alice, group, alice).then().statusCode(204));

        join(alice, group, alice).then().statusCode(201);

        assertThat(listed(group)).containsExactly(alice);
        assertThat(latestListed(group)).containsExactly(alice);
        join(alice, group, alice).then().statusCode(200);
    }
}
