package dev.cqlpatterns.groups;

import static dev.cqlpatterns.groups.GroupMembersTest.createUser;
import static dev.cqlpatterns.groups.GroupMembersTest.join;
import static dev.cqlpatterns.groups.GroupMembersTest.leave;
import static dev.cqlpatterns.groups.GroupMembersTest.members;
import static dev.cqlpatterns.groups.GroupMembersTest.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.time.TimeUuids;
import dev.cqlpatterns.testsupport.ConditionalWriteFaults;
import dev.cqlpatterns.testsupport.StoredRows;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A join or leave of a group that stopped half way (a 503 after its first writes; simulated by
 * writing just those rows here) is finished by the client's retry of the same request, leaving
 * exactly what one clean request leaves. The routes write no logged batch (issue 14): a join claims
 * the membership first and writes the two list rows from it; a leave deletes the list rows first
 * and the membership last, so a retry still finds what is left to do.
 */
@QuarkusTest
class HalfDoneMembershipTest {

    @Inject
    StoredRows rows;

    @Inject
    ConditionalWriteFaults faults;

    @AfterEach
    void clearFaults() {
        faults.clearFaults();
    }

    private int buckets(String group) {
        return rows.execute("SELECT buckets FROM groups WHERE groupname = ?", group)
                .get(0)
                .getInt("buckets");
    }

    /** What the tables and the two lists hold of one user in one group. */
    private Map<String, Object> stored(String group, String username) {
        Map<String, Object> state = new LinkedHashMap<>();
        List<Row> claim = rows.execute(
                "SELECT bucket, joined FROM groups_by_user WHERE username = ? AND groupname = ?", username, group);
        state.put("memberships", claim.size());
        int bucket = Groups.bucketOf(username, buckets(group));
        List<Row> member = rows.execute(
                "SELECT joined FROM group_members WHERE groupname = ? AND bucket = ? AND username = ?",
                group,
                bucket,
                username);
        state.put("memberRows", member.size());
        List<String> listed = members(group, 500, null)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.username");
        state.put("listed", listed.stream().filter(username::equals).count());
        List<String> latest = given().header("Authorization", Tokens.bearer("reader"))
                .queryParam("limit", 500)
                .when()
                .get("/groups/{g}/members/latest", group)
                .then()
                .statusCode(200)
                .extract()
                .jsonPath()
                .getList("items.username");
        state.put("latest", latest.stream().filter(username::equals).count());
        if (!claim.isEmpty()) {
            UUID joined = claim.get(0).getUuid("joined");
            state.put("bucketAsClaimed", claim.get(0).getInt("bucket") == bucket);
            state.put(
                    "memberJoinedAsClaimed",
                    member.size() == 1 && joined.equals(member.get(0).getUuid("joined")));
            int day = Groups.JOINS.granularity().key(TimeUuids.instant(joined));
            state.put(
                    "joinerRows",
                    rows
                            .execute(
                                    "SELECT username FROM group_join_dates WHERE groupname = ? AND join_day = ? "
                                            + "AND joined = ?",
                                    group,
                                    day,
                                    joined)
                            .stream()
                            .map(r -> r.getString("username"))
                            .toList());
        }
        return state;
    }

    /** {@code state} (of {@link #stored}) of a member joined once: one claim, its member row, listed once in each list. */
    private static void assertJoinedOnce(Map<String, Object> state) {
        assertThat(state)
                .containsEntry("memberships", 1)
                .containsEntry("memberRows", 1)
                .containsEntry("listed", 1L)
                .containsEntry("latest", 1L)
                .containsEntry("memberJoinedAsClaimed", true);
    }

    @Test
    void should_finish_a_join_that_stopped_after_claiming_the_membership() {
        String group = unique("half-join-");
        String first = unique("hj-a-");
        String clean = unique("hj-b-");
        String halfway = unique("hj-c-");
        createUser(first, 30);
        createUser(clean, 31);
        createUser(halfway, 32);
        join(first, group, first).then().statusCode(201);
        join(clean, group, clean).then().statusCode(201);

        // halfway's join stopped after its first write: the claim, no list rows.
        UUID joined = TimeUuids.at(Instant.now());
        rows.execute(
                "INSERT INTO groups_by_user (username, groupname, bucket, joined) VALUES (?, ?, ?, ?)",
                halfway,
                group,
                Groups.bucketOf(halfway, buckets(group)),
                joined);
        assertThat(stored(group, halfway)).containsEntry("memberRows", 0).containsEntry("listed", 0L);

        // The retry finds its claim and finishes the join with the first attempt's time (200, as
        // every repeated join answers).
        String joinedAt =
                join(halfway, group, halfway).then().statusCode(200).extract().path("joinedAt");
        assertThat(Instant.parse(joinedAt)).isEqualTo(TimeUuids.instant(joined));
        Map<String, Object> finished = stored(group, halfway);
        Map<String, Object> expected = new LinkedHashMap<>(stored(group, clean));
        expected.put("joinerRows", List.of(halfway));
        assertThat(finished).isEqualTo(expected);
        assertJoinedOnce(finished);
    }

    @Test
    void should_finish_a_leave_that_stopped_after_deleting_the_list_rows() {
        String group = unique("half-leave-");
        String stays = unique("hl-a-");
        String clean = unique("hl-b-");
        String halfway = unique("hl-c-");
        for (String user : List.of(stays, clean, halfway)) {
            createUser(user, 40);
            join(user, group, user).then().statusCode(201);
        }
        leave(clean, group, clean).then().statusCode(204);

        // halfway's leave stopped after its first writes: the list rows are gone, the membership is not.
        Row claim = rows.execute(
                        "SELECT bucket, joined FROM groups_by_user WHERE username = ? AND groupname = ?",
                        halfway,
                        group)
                .get(0);
        UUID joined = claim.getUuid("joined");
        rows.execute(
                "DELETE FROM group_members WHERE groupname = ? AND bucket = ? AND username = ?",
                group,
                claim.getInt("bucket"),
                halfway);
        rows.execute(
                "DELETE FROM group_join_dates WHERE groupname = ? AND join_day = ? AND joined = ?",
                group,
                Groups.JOINS.granularity().key(TimeUuids.instant(joined)),
                joined);

        leave(halfway, group, halfway).then().statusCode(204);
        assertThat(stored(group, halfway))
                .isEqualTo(stored(group, clean))
                .containsEntry("memberships", 0)
                .containsEntry("memberRows", 0)
                .containsEntry("listed", 0L)
                .containsEntry("latest", 0L);
        assertThat(stored(group, stays)).containsEntry("listed", 1L).containsEntry("latest", 1L);
        // Done: the same DELETE again is a 404, as after any completed leave.
        leave(halfway, group, halfway).then().statusCode(404);
    }

    /**
     * The membership claim ends "CAS operation result is unknown" (injected), after committing or
     * without having run: a serial read settles it, and the join answers 201 with one membership,
     * listed once, as a clean join (no 503, no 200 for the caller's own first join).
     */
    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void should_join_when_the_claim_ends_with_an_unknown_outcome(boolean committed) {
        String group = unique("unknown-join-");
        String clean = unique("uj-a-");
        String joiner = unique("uj-b-");
        createUser(clean, 33);
        createUser(joiner, 34);
        join(clean, group, clean).then().statusCode(201);

        faults.injectUnknownOutcome("groups_by_user", committed, 1);
        join(joiner, group, joiner).then().statusCode(201);
        assertJoinedOnce(stored(group, joiner));
    }

    /**
     * The claim commits and Cassandra answers "not applied" with the join's own row (its
     * coordinator finished its own accepted proposal in a later round): still this join, 201.
     */
    @Test
    void should_answer_201_when_the_claim_is_answered_not_applied_with_its_own_row() {
        String group = unique("own-join-");
        String joiner = unique("oj-");
        createUser(joiner, 35);
        faults.injectOwnWriteNotApplied("groups_by_user", 1);
        join(joiner, group, joiner).then().statusCode(201);
        join(joiner, group, joiner).then().statusCode(200);
        assertJoinedOnce(stored(group, joiner));
    }
}
