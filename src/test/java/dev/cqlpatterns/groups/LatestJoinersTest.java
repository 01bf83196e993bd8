package dev.cqlpatterns.groups;

import static dev.cqlpatterns.groups.GroupMembersTest.createUser;
import static dev.cqlpatterns.groups.GroupMembersTest.join;
import static dev.cqlpatterns.groups.GroupMembersTest.leave;
import static dev.cqlpatterns.groups.GroupMembersTest.unique;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.SmallLimitsProfile;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Runs with a settable clock (joins on several days) and at most 2 days visited per page. */
@QuarkusTest
@TestProfile(SmallLimitsProfile.class)
class LatestJoinersTest {

    @Inject
    MovableClock clock;

    /** The profile's other test classes run on real time. */
    @AfterEach
    void realTime() {
        clock.reset();
    }

    static Response latest(String group, Integer limit, String cursor) {
        var request = given().header("Authorization", Tokens.bearer("reader"));
        if (limit != null) {
            request.queryParam("limit", limit);
        }
        if (cursor != null) {
            request.queryParam("cursor", cursor);
        }
        return request.when().get("/groups/{g}/members/latest", group);
    }

    @Test
    void should_walk_join_days_newest_first_and_forget_those_who_left() {
        String group = unique("club-");
        // Day 1: a1, a2, a3; day 3: b1, b2; day 4: c1 (no joins on day 2).
        Instant day1 = Instant.parse("2031-03-01T08:00:00Z");
        List<String> names =
                List.of(unique("a1"), unique("a2"), unique("a3"), unique("b1"), unique("b2"), unique("c1"));
        List<Instant> at = List.of(
                day1,
                day1.plusSeconds(60),
                day1.plusSeconds(120),
                day1.plus(Duration.ofDays(2)),
                day1.plus(Duration.ofDays(2)).plusSeconds(60),
                day1.plus(Duration.ofDays(3)));
        for (int i = 0; i < names.size(); i++) {
            clock.set(at.get(i));
            createUser(names.get(i), 30);
            join(names.get(i), group, names.get(i)).then().statusCode(201);
        }

        // limit 2: day 4 then day 3; 1 (groups) + 1 (the generation) + 1 (time_buckets) + 2 days.
        Response first = latest(group, 2, null);
        first.then().statusCode(200).header("X-Partitions-Read", "5");
        assertThat(first.jsonPath().getList("items.username")).containsExactly(names.get(5), names.get(4));
        assertThat(first.jsonPath().getString("items[0].joinedAt")).isEqualTo("2031-03-04T08:00:00Z");

        // Continues inside day 3, then day 1.
        Response second = latest(group, 2, first.jsonPath().getString("next"));
        second.then().statusCode(200).header("X-Partitions-Read", "5");
        assertThat(second.jsonPath().getList("items.username")).containsExactly(names.get(3), names.get(2));

        Response third = latest(group, 5, second.jsonPath().getString("next"));
        third.then().statusCode(200).header("X-Partitions-Read", "4").body("next", nullValue());
        assertThat(third.jsonPath().getList("items.username")).containsExactly(names.get(1), names.get(0));

        // The day budget (2 days here) ends a page early, with a cursor to the next day.
        Response budget = latest(group, 10, null);
        budget.then().statusCode(200).header("X-Partitions-Read", "5");
        assertThat(budget.jsonPath().getList("items.username"))
                .containsExactly(names.get(5), names.get(4), names.get(3));
        Response rest = latest(group, 10, budget.jsonPath().getString("next"));
        rest.then().statusCode(200).header("X-Partitions-Read", "4").body("next", nullValue());
        assertThat(rest.jsonPath().getList("items.username")).containsExactly(names.get(2), names.get(1), names.get(0));

        leave(names.get(4), group, names.get(4)).then().statusCode(204);
        Response afterLeave = latest(group, 3, null);
        assertThat(afterLeave.jsonPath().getList("items.username")).containsExactly(names.get(5), names.get(3));
        assertThat(latest(group, 1, afterLeave.jsonPath().getString("next"))
                        .jsonPath()
                        .getList("items.username"))
                .containsExactly(names.get(2));
    }

    @Test
    void should_cap_the_groups_one_user_joins() {
        String wes = unique("wes");
        createUser(wes, 30);
        for (int i = 0; i < 3; i++) {
            join(wes, unique("cap-"), wes).then().statusCode(201);
        }
        problem(join(wes, unique("cap-"), wes), 409);
    }

    @Test
    void should_refuse_a_bad_latest_limit() {
        String group = unique("club-");
        String xena = unique("xena");
        createUser(xena, 30);
        join(xena, group, xena).then().statusCode(201);
        problem(latest(group, 0, null), 400);
        latest(group, 1, null).then().statusCode(200).body("items[0].username", equalTo(xena));
    }
}
