package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.user;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.hasItem;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.testsupport.MembershipRows;
import dev.cqlpatterns.testsupport.SmallLimitsProfile;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Whose cap a conversation is charged to (cql/011_added_memberships.cql): the caps here are 3
 * conversations started and 4 put in by others.
 */
@QuarkusTest
@TestProfile(SmallLimitsProfile.class)
class MemberQuotasTest {

    @Inject
    StoredRows rows;

    @Test
    void should_not_let_a_third_party_use_up_a_users_own_cap() {
        String victim = user("victim");
        String mallory = user("mallory");
        List<String> groups = new ArrayList<>();
        // Mallory starts conversations with the victim and leaves each one at once.
        for (int i = 0; i < SmallLimitsProfile.ADDED_CONVERSATIONS; i++) {
            String id = create(mallory, List.of(victim, user("crony")), "spam " + i);
            as(mallory)
                    .when()
                    .delete("/conversations/{id}/members/{u}", id, mallory)
                    .then()
                    .statusCode(204);
            groups.add(id);
        }
        // The victim's bound of conversations others put them in is full...
        problem(
                        as(mallory)
                                .contentType(ContentType.JSON)
                                .body(Map.of("members", List.of(victim, user("crony"))))
                                .when()
                                .post("/conversations"),
                        409)
                .body("detail", containsString(victim))
                .body("detail", containsString("by others"));

        // ...but every conversation the victim starts still works, up to their own cap.
        for (int i = 0; i < SmallLimitsProfile.OWN_CONVERSATIONS; i++) {
            create(victim, List.of(user("friend")), null);
        }
        problem(
                        as(victim)
                                .contentType(ContentType.JSON)
                                .body(Map.of("members", List.of(user("friend"))))
                                .when()
                                .post("/conversations"),
                        409)
                .body("detail", containsString("You already started"));

        // Leaving a conversation someone else put them in gives that room back.
        String friend = user("friend");
        as(victim)
                .when()
                .delete("/conversations/{id}/members/{u}", groups.get(0), victim)
                .then()
                .statusCode(204);
        create(friend, List.of(victim), null);
    }

    @Test
    void should_charge_an_added_member_to_the_bound_of_others_not_to_their_own_cap() {
        String carol = user("carol");
        // Others add carol to their groups until her bound of conversations others put her in is full.
        for (int i = 0; i <= SmallLimitsProfile.ADDED_CONVERSATIONS; i++) {
            String adder = user("adder");
            String id = create(adder, List.of(user("bob"), user("dan")), null);
            as(adder)
                    .when()
                    .put("/conversations/{id}/members/{u}", id, carol)
                    .then()
                    .statusCode(i < SmallLimitsProfile.ADDED_CONVERSATIONS ? 200 : 409)
                    .contentType(i < SmallLimitsProfile.ADDED_CONVERSATIONS ? "application/json" : Problem.MEDIA_TYPE);
        }
        // Carol's own cap is untouched.
        create(carol, List.of(user("friend")), null);
    }

    /**
     * A join that stopped after charging the new member (a 503 before the member set; simulated by
     * writing the member's row of conversation_memberships_by_user here) is finished by the same PUT again, even when that charge fills the
     * member's bound: the retry does not count its own charge twice (it answered 409 before).
     */
    @Test
    void should_finish_a_half_done_join_whose_own_charge_fills_the_bound() {
        String erin = user("erin");
        for (int i = 0; i < SmallLimitsProfile.ADDED_CONVERSATIONS - 1; i++) {
            String adder = user("adder");
            String id = create(adder, List.of(user("bob"), user("dan")), null);
            as(adder)
                    .when()
                    .put("/conversations/{id}/members/{u}", id, erin)
                    .then()
                    .statusCode(200);
        }
        String adder = user("adder");
        String id = create(adder, List.of(user("bob"), user("dan")), null);
        MembershipRows.write(rows, erin, UUID.fromString(id), adder, Instant.now());

        as(adder)
                .when()
                .put("/conversations/{id}/members/{u}", id, erin)
                .then()
                .statusCode(200)
                .body("members", hasItem(erin));
        // The bound is full now, with this conversation counted once.
        String other = create(adder, List.of(user("bob"), user("dan")), null);
        as(adder)
                .when()
                .put("/conversations/{id}/members/{u}", other, erin)
                .then()
                .statusCode(409);
    }
}
