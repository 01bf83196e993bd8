package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.join;
import static dev.cqlpatterns.messenger.Chat.remove;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.testsupport.ChurnProfile;
import dev.cqlpatterns.testsupport.SetGenerations;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * A user's memberships in conversation_memberships_by_user (cql/056_membership_sets.cql), the set the
 * quotas count: after a third party put them in {@value #LEFT} conversations they left again, the set
 * holds exactly the conversations the user is in, each with who put them there, and a create that
 * checks the user's quota scans at most the removals one generation collects (counting the inbox's
 * summaries, as the quota did before the sets, scans one tombstone per conversation left). The set is
 * trusted: it is the only count.
 */
@QuarkusTest
@TestProfile(ChurnProfile.class)
class MembershipSetTest {
    private static final String SET = "conversation_memberships_by_user";
    private static final int LEFT = 150;

    @Inject
    StoredRows stored;

    @Test
    void should_hold_the_users_conversations_and_check_quotas_past_a_bounded_number_of_tombstones() {
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
        SetGenerations.quiet(stored, SET, dana);
        int generation = SetGenerations.current(stored, SET, dana);
        assertThat(held(dana)).as("the set's generation %d", generation).isEqualTo(expected);
        assertThat(generation).as("the set moved past its removals").isGreaterThan(0);

        SetGenerations.requestScansAtMost(
                stored,
                "a create checking the user's quota",
                () -> create(erin, List.of(erin, dana, gus), "one more"),
                ChurnProfile.REMOVALS + SetGenerations.DURING_A_MOVE,
                "inbox_by_user",
                dana,
                LEFT);
    }

    /** A membership only in the inbox, as a release before the sets left it, is not counted. */
    @Test
    void should_trust_the_set() {
        String ivy = user("ivy");
        String jon = user("jon");
        String kit = user("kit");
        Map<String, String> expected = new HashMap<>();
        expected.put(create(ivy, List.of(ivy, jon, kit), "own"), null);
        stored.execute(
                "INSERT INTO inbox_by_user (username, kind, conversation_id, message_id, joined_at) "
                        + "VALUES (?, 0, ?, 00000000-0000-1000-8000-000000000000, ?)",
                ivy,
                UUID.randomUUID(),
                Instant.now());

        expected.put(create(kit, List.of(kit, ivy, jon), "after"), kit);

        assertThat(held(ivy)).as("ivy's set").isEqualTo(expected);
    }

    /** The conversations in {@code username}'s set now, each with who put them there. */
    private Map<String, String> held(String username) {
        int generation = SetGenerations.current(stored, SET, username);
        Map<String, String> held = new HashMap<>();
        for (Row row : stored.execute(
                "SELECT conversation_id, added_by FROM " + SET + " WHERE username = ? AND generation = ?",
                username,
                generation)) {
            held.put(row.getUuid("conversation_id").toString(), row.getString("added_by"));
        }
        return held;
    }
}
