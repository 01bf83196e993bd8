package dev.cqlpatterns.groups;

import static dev.cqlpatterns.groups.GroupMembersTest.createUser;
import static dev.cqlpatterns.groups.GroupMembersTest.join;
import static dev.cqlpatterns.groups.GroupMembersTest.leave;
import static dev.cqlpatterns.groups.GroupMembersTest.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.testsupport.ChurnProfile;
import dev.cqlpatterns.testsupport.SetGenerations;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * A user's groups in group_memberships_by_user (cql/056_membership_sets.cql) after they joined and
 * left {@value #LEFT} groups: the set holds exactly the groups the user is in, and a join, which
 * checks the cap, scans at most the removals one generation collects (counting groups_by_user, as the
 * cap did before, scans one tombstone per group left). The set is trusted: it is the
 * only count.
 */
@QuarkusTest
@TestProfile(ChurnProfile.class)
class GroupMembershipSetTest {
    private static final String SET = "group_memberships_by_user";
    private static final int LEFT = 150;

    @Inject
    StoredRows stored;

    @Test
    void should_hold_the_users_groups_and_count_them_past_a_bounded_number_of_tombstones() {
        String user = unique("hal");
        createUser(user, 33);
        String run = unique("g");
        Set<String> expected = new HashSet<>();
        for (int i = 0; i < 3; i++) {
            String group = run + "-kept-" + i;
            join(user, group, user).then().statusCode(201);
            expected.add(group);
        }
        // Left and joined again: a member once more.
        String back = run + "-back";
        join(user, back, user).then().statusCode(201);
        leave(user, back, user).then().statusCode(204);
        join(user, back, user).then().statusCode(201);
        expected.add(back);
        for (int i = 0; i < LEFT; i++) {
            String group = run + "-left-" + i;
            join(user, group, user).then().statusCode(201);
            leave(user, group, user).then().statusCode(204);
        }
        SetGenerations.quiet(stored, SET, user);
        int generation = SetGenerations.current(stored, SET, user);

        assertThat(held(user)).as("the set's generation %d", generation).isEqualTo(expected);
        assertThat(generation).as("the set moved past its removals").isGreaterThan(0);

        SetGenerations.requestScansAtMost(
                stored,
                "a join checking the user's cap",
                () -> join(user, run + "-one-more", user).then().statusCode(201),
                ChurnProfile.REMOVALS + SetGenerations.DURING_A_MOVE,
                "groups_by_user",
                user,
                LEFT);
    }

    /** A claim only in groups_by_user, as a release before the sets left it, is not counted. */
    @Test
    void should_trust_the_set() {
        String user = unique("ida");
        createUser(user, 35);
        String run = unique("f");
        Set<String> expected = new HashSet<>();
        String kept = run + "-kept";
        join(user, kept, user).then().statusCode(201);
        expected.add(kept);
        stored.execute(
                "INSERT INTO groups_by_user (username, groupname, bucket, joined) VALUES (?, ?, 0, now())",
                user,
                run + "-before");

        String after = run + "-after";
        join(user, after, user).then().statusCode(201);
        expected.add(after);

        assertThat(held(user)).as("the set").isEqualTo(expected);
    }

    /** The groups in {@code username}'s set now. */
    private Set<String> held(String username) {
        Set<String> held = new HashSet<>();
        for (Row row : stored.execute(
                "SELECT groupname FROM " + SET + " WHERE username = ? AND generation = ?",
                username,
                SetGenerations.current(stored, SET, username))) {
            held.add(row.getString("groupname"));
        }
        return held;
    }
}
