package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.join;
import static dev.cqlpatterns.messenger.Chat.remove;
import static dev.cqlpatterns.messenger.Chat.user;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.notNullValue;

import dev.cqlpatterns.testsupport.Concurrently;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class ConversationsTest {

    @Test
    void should_give_a_pair_the_same_conversation_whoever_creates_it() {
        String alice = user("alice");
        String bob = user("bob");

        String id = as(alice)
                .contentType(ContentType.JSON)
                .body(Map.of("members", List.of(bob), "title", "Lunch"))
                .when()
                .post("/conversations")
                .then()
                .statusCode(201)
                .header("Location", containsString("/conversations/"))
                .body("kind", equalTo("direct"))
                .body("members", equalTo(List.of(alice, bob).stream().sorted().toList()))
                .body("title", equalTo("Lunch"))
                .body("createdBy", equalTo(alice))
                .extract()
                .path("id");

        String smaller = alice.compareTo(bob) < 0 ? alice : bob;
        String bigger = alice.compareTo(bob) < 0 ? bob : alice;
        assertThat(id)
                .isEqualTo(UUID.nameUUIDFromBytes((smaller + ":" + bigger).getBytes(StandardCharsets.UTF_8))
                        .toString());

        start(bob, Map.of("members", List.of(alice, bob)))
                .then()
                .statusCode(200)
                .body("id", equalTo(id))
                .body("title", equalTo("Lunch"));
        start(alice, Map.of("members", List.of(bob))).then().statusCode(200).body("id", equalTo(id));
    }

    @Test
    void should_agree_on_one_conversation_when_a_pair_creates_it_concurrently() {
        String alice = user("alice");
        String bob = user("bob");
        List<Integer> statuses = Concurrently.run(List.of(0, 1, 2, 3, 4, 5, 6, 7), i -> {
            String me = i % 2 == 0 ? alice : bob;
            String other = i % 2 == 0 ? bob : alice;
            return as(me).contentType(ContentType.JSON)
                    .body(Map.of("members", List.of(other), "title", "by " + me))
                    .when()
                    .post("/conversations")
                    .then()
                    .extract()
                    .statusCode();
        });
        assertThat(statuses).containsOnly(200, 201);
        assertThat(statuses.stream().filter(s -> s == 201).count()).isEqualTo(1);
        String id = as(alice)
                .contentType(ContentType.JSON)
                .body(Map.of("members", List.of(bob)))
                .when()
                .post("/conversations")
                .then()
                .statusCode(200)
                .extract()
                .path("id");
        Chat.inbox(alice).body("items.conversationId", hasItem(id));
        Chat.inbox(bob).body("items.conversationId", hasItem(id));
    }

    @Test
    void should_create_a_group_with_the_caller_as_member() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");

        String first = create(alice, List.of(bob, carol), "Trip");
        String second = create(alice, List.of(bob, carol), "Trip");
        assertThat(first).isNotEqualTo(second);

        as(carol)
                .when()
                .get("/conversations/{id}", first)
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", equalTo("1"))
                .body("id", equalTo(first))
                .body("kind", equalTo("group"))
                .body(
                        "members",
                        equalTo(List.of(alice, bob, carol).stream().sorted().toList()))
                .body("title", equalTo("Trip"))
                .body("createdAt", notNullValue());
    }

    @Test
    void should_hide_a_conversation_from_non_members() {
        String alice = user("alice");
        String id = create(alice, List.of(user("bob")), null);
        problem(as(user("mallory")).when().get("/conversations/{id}", id), 404);
        problem(as(alice).when().get("/conversations/{id}", UUID.randomUUID()), 404);
        problem(as(alice).when().get("/conversations/not-a-uuid"), 400);
        problem(given().when().get("/conversations/{id}", id), 401);
    }

    @Test
    void should_refuse_bad_conversations() {
        String alice = user("alice");
        problem(start(alice, "{}"), 400).body("errors.field", hasItem("members"));
        problem(start(alice, Map.of("members", List.of(alice))), 400).body("errors.field", hasItem("members"));
        problem(start(alice, Map.of("members", List.of("Bob:Smith"))), 400).body("errors.field", hasItem("members[0]"));
        problem(start(alice, Map.of("members", List.of(user("bob")), "title", "t".repeat(101))), 400)
                .body("errors.field", hasItem("title"));
        List<String> crowd = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            crowd.add("crowd-" + i);
        }
        problem(start(alice, Map.of("members", crowd)), 400).body("detail", containsString("50"));
    }

    @Test
    void should_take_only_signed_up_users_as_members() {
        String alice = user("alice");
        String bob = user("bob");
        String ghost = Chat.unknown("ghost");
        problem(start(alice, Map.of("members", List.of(bob, ghost))), 400)
                .body("errors.field", equalTo(List.of("members[1]")))
                .body("detail", containsString(ghost));
        problem(start(alice, Map.of("members", List.of(ghost))), 400).body("detail", containsString(ghost));
        // A caller who never signed up starts nothing either.
        String stranger = Chat.unknown("stranger");
        problem(start(stranger, Map.of("members", List.of(bob))), 400).body("errors.field", equalTo(List.of("caller")));

        String id = create(alice, List.of(bob, user("carol")), null);
        problem(join(alice, id, ghost), 404).body("detail", containsString(ghost));
        as(alice).when().get("/conversations/{id}", id).then().statusCode(200).body("members", not(hasItem(ghost)));
        Chat.inbox(alice)
                .body(
                        "items.conversationId",
                        not(hasItem(UUID.nameUUIDFromBytes(
                                        ((alice.compareTo(ghost) < 0 ? alice + ":" + ghost : ghost + ":" + alice))
                                                .getBytes(StandardCharsets.UTF_8))
                                .toString())));
    }

    @Test
    void should_let_members_join_and_leave_a_group() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String dave = user("dave");
        String id = create(alice, List.of(bob, carol), "Group");

        join(bob, id, dave).then().statusCode(200).body("members", hasItem(dave));
        join(bob, id, dave).then().statusCode(200).body("members.size()", equalTo(4));
        as(dave).when().get("/conversations/{id}", id).then().statusCode(200);
        Chat.inbox(dave).body("items.conversationId", hasItem(id));

        // carol leaves; she no longer sees it, and it leaves her inbox
        remove(carol, id, carol).then().statusCode(204);
        problem(as(carol).when().get("/conversations/{id}", id), 404);
        Chat.inbox(carol).body("items.conversationId", not(hasItem(id)));
        // leaving again: not a member any more
        problem(remove(carol, id, carol), 404);
        // bob may not remove dave; alice created it and may
        problem(remove(bob, id, dave), 403);
        remove(alice, id, dave).then().statusCode(204);
        problem(remove(alice, id, carol), 404);
        as(alice)
                .when()
                .get("/conversations/{id}", id)
                .then()
                .statusCode(200)
                .body("members", equalTo(List.of(alice, bob).stream().sorted().toList()));
        // a non-member cannot add anyone
        problem(join(carol, id, carol), 404);
        problem(join(alice, id, "Not Valid"), 400);
    }

    @Test
    void should_refuse_a_member_over_the_limit() {
        String alice = user("alice");
        List<String> others = new ArrayList<>();
        for (int i = 1; i < 50; i++) {
            others.add(user("member" + i));
        }
        String id = create(alice, others, "Full house");
        problem(join(alice, id, user("late")), 409).body("detail", containsString("50"));
    }

    @Test
    void should_keep_the_members_of_a_pair_fixed() {
        String alice = user("alice");
        String bob = user("bob");
        String id = create(alice, List.of(bob), null);
        problem(join(alice, id, user("carol")), 409);
        problem(remove(alice, id, alice), 409);
    }

    /** POST /conversations as {@code caller} with {@code body}, the answer not yet checked. */
    private static Response start(String caller, Object body) {
        return as(caller).contentType(ContentType.JSON).body(body).when().post("/conversations");
    }
}
