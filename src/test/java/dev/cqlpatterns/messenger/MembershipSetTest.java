package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.join;
import static dev.cqlpatterns.messenger.Chat.remove;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.testsupport.FewRemovalsProfile;
import dev.cqlpatterns.testsupport.ReadTraces;
import dev.cqlpatterns.testsupport.SetGenerations;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A user's memberships in conversation_memberships_by_user (cql/056_membership_sets.cql) after a
 * third party put them in {@value #LEFT} conversations they left again: the set holds exactly the
 * conversations the user is in, each with who put them there, and counting it scans at most the
 * removals one generation collects, where counting conversations_added_by_others scans one tombstone
 * per conversation left.
 */
@QuarkusTest
@TestProfile(FewRemovalsProfile.class)
class MembershipSetTest {
    private static final String SET = "conversation_memberships_by_user";
    private static final int LEFT = 150;

    @Inject
    StoredRows stored;

    @Test
    void should_hold_the_users_conversations_and_count_them_past_a_bounded_number_of_tombstones() {
        String dana = user("dana");
        String erin = user("erin");
        String gus = user("gus");
        Map<String, String> expected = new HashMap<>();
        for (int i = 0; i < 3; i++) {
            expected.put(create(dana, List.of(dana, erin, gus), "own " + i), null);
        }
        for (int i = 0; i < 4; i++) {
            expected.put(create(erin, List.of(erin, dana, gus), "kept " + i), erin);
        }
        // Left and put back by another member: the membership is theirs now.
        String back = create(erin, List.of(erin, dana, gus), "back");
        remove(dana, back, dana).then().statusCode(204);
        join(gus, back, dana).then().statusCode(200);
        expected.put(back, gus);
        for (int i = 0; i < LEFT; i++) {
            String id = create(erin, List.of(erin, dana, gus), "left " + i);
            remove(dana, id, dana).then().statusCode(204);
        }
        SetGenerations.settled(stored, SET, dana);
        int generation = SetGenerations.current(stored, SET, dana);

        Map<String, String> held = new HashMap<>();
        for (Row row : stored.execute(
                "SELECT conversation_id, added_by FROM " + SET + " WHERE username = ? AND generation = ?",
                dana,
                generation)) {
            held.put(row.getUuid("conversation_id").toString(), row.getString("added_by"));
        }
        assertThat(held).as("the set's generation %d", generation).isEqualTo(expected);
        assertThat(generation).as("the set moved past its removals").isGreaterThan(0);

        long inSet = ReadTraces.countTombstones(stored, SET, "username = ? AND generation = ?", dana, generation);
        long inOld = ReadTraces.countTombstones(stored, "conversations_added_by_others", "username = ?", dana);
        System.out.printf(
                "counting the set after %d leaves: %d tombstone cells (generation %d)%n", LEFT, inSet, generation);
        System.out.printf("counting conversations_added_by_others after %d leaves: %d tombstone cells%n", LEFT, inOld);
        assertThat(inSet).isLessThanOrEqualTo((long) FewRemovalsProfile.REMOVALS + SetGenerations.DURING_A_MOVE);
        assertThat(inOld).as("the table the set replaces").isGreaterThanOrEqualTo(LEFT);
    }
}
