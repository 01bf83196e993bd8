package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.history;
import static dev.cqlpatterns.messenger.Chat.send;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.notNullValue;
import static org.hamcrest.Matchers.nullValue;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.idempotency.IdempotencyKeys;
import dev.cqlpatterns.platform.time.TimeUuids;
import dev.cqlpatterns.testsupport.KeyClaims;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

@QuarkusTest
class MessagesTest {

    @Inject
    Cql cql;

    /** The blocking session: fine on a test thread, never on an event loop. */
    @Inject
    QuarkusCqlSession session;

    @Inject
    KeyClaims claims;

    @Inject
    MessagePositions positions;

    @Test
    void should_send_and_read_back_newest_first_with_every_field() {
        String alice = user("alice");
        String bob = user("bob");
        String id = create(alice, List.of(bob), null);

        as(alice)
                .contentType(ContentType.JSON)
                .body(Map.of("content", "Hi!", "attachments", Map.of("map.png", "https://example.com/map.png")))
                .when()
                .post("/conversations/{id}/messages", id)
                .then()
                .statusCode(201)
                .body("id", notNullValue())
                .body("conversationId", equalTo(id))
                .body("sentAt", notNullValue())
                .body("sender", equalTo(alice))
                .body("recipients", equalTo(List.of(bob)));
        sent(bob, id, "Hello!");
        sent(alice, id, "Where are you?");

        JsonPath page = as(bob).queryParam("limit", 2)
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body("items.content", equalTo(List.of("Where are you?", "Hello!")))
                .body("items[0].sender", equalTo(alice))
                .body("items[0].recipients", equalTo(List.of(bob)))
                .body("items[0].seenBy", equalTo(List.of()))
                .body("items[0].attachments", equalTo(Map.of()))
                .body("next", notNullValue())
                .extract()
                .jsonPath();
        as(bob).queryParam("limit", 2)
                .queryParam("cursor", page.getString("next"))
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body("items.content", equalTo(List.of("Hi!")))
                .body("items[0].attachments", equalTo(Map.of("map.png", "https://example.com/map.png")))
                .body("next", nullValue());
        // A page that ends exactly at the last message says so.
        as(bob).queryParam("limit", 3)
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body("items.size()", equalTo(3))
                .body("next", nullValue());
    }

    @Test
    void should_keep_the_recipients_each_message_was_sent_to() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String dave = user("dave");
        String id = create(alice, List.of(bob, carol), null);
        sent(alice, id, "one");
        as(carol)
                .when()
                .delete("/conversations/{id}/members/{u}", id, carol)
                .then()
                .statusCode(204);
        sent(alice, id, "two");
        as(bob).when().put("/conversations/{id}/members/{u}", id, dave).then().statusCode(200);
        sent(alice, id, "three");

        history(dave, id, Map.of())
                .then()
                .statusCode(200)
                .body("items.content", equalTo(List.of("three", "two", "one")))
                .body(
                        "items[0].recipients",
                        equalTo(List.of(bob, dave).stream().sorted().toList()))
                .body("items[1].recipients", equalTo(List.of(bob)))
                .body(
                        "items[2].recipients",
                        equalTo(List.of(bob, carol).stream().sorted().toList()));
        problem(send(carol, id, "let me back in"), 404);
        problem(history(carol, id, Map.of()), 404);
    }

    @Test
    void should_answer_a_retry_with_the_same_key_with_the_same_message() {
        String alice = user("alice");
        String bob = user("bob");
        String id = create(alice, List.of(bob), null);
        Map<String, Object> body = Map.of("content", "only once");

        String first = sendKeyed(alice, id, "key-1", body)
                .then()
                .statusCode(201)
                .header("Idempotent-Replayed", nullValue())
                .extract()
                .path("id");
        sendKeyed(alice, id, "key-1", body)
                .then()
                .statusCode(201)
                .header("Idempotent-Replayed", equalTo("true"))
                .body("id", equalTo(first))
                .body("recipients", equalTo(List.of(bob)));
        problem(sendKeyed(alice, id, "key-1", Map.of("content", "something else")), 409);
        // Keys belong to their sender: bob's key-1 is another message.
        sendKeyed(bob, id, "key-1", body).then().statusCode(201).header("Idempotent-Replayed", nullValue());

        history(alice, id, Map.of()).then().statusCode(200).body("items.size()", equalTo(2));
        Chat.inbox(bob).body("items.find { it.conversationId == '" + id + "' }.unreadCount", equalTo(1));
    }

    @Test
    void should_finish_a_send_whose_first_attempt_died_after_claiming_its_key() {
        String alice = user("alice");
        String bob = user("bob");
        UUID id = UUID.fromString(create(alice, List.of(bob), null));
        UUID claimed = TimeUuids.at(Instant.now());
        diedAfterClaiming(id, alice, "died", "lost", claimed, List.of(bob));

        retryIsReplayed(alice, id, "died", "lost", claimed);
        history(bob, id, Map.of()).then().statusCode(200).body("items.id", equalTo(List.of(claimed.toString())));
        Chat.inbox(bob).body("items.find { it.conversationId == '" + id + "' }.unreadCount", equalTo(1));

        // Died after its message row, before the inbox writes: the retry delivers it.
        UUID written = TimeUuids.at(Instant.now());
        diedAfterClaiming(id, alice, "died-later", "half", written, List.of(bob));
        session.execute(SimpleStatement.newInstance(
                "INSERT INTO " + cql.keyspace().asCql(true)
                        + ".messages_by_conversation (conversation_id, bucket, message_id, sender, content, recipients) "
                        + "VALUES (?, ?, ?, ?, ?, ?)",
                id,
                Messages.bucket(written),
                written,
                alice,
                "half",
                java.util.Set.of(bob)));
        retryIsReplayed(alice, id, "died-later", "half", written);
        Chat.inbox(bob)
                .body("items.find { it.conversationId == '" + id + "' }.unreadCount", equalTo(2))
                .body("items.find { it.conversationId == '" + id + "' }.lastMessage", equalTo("half"));
        history(bob, id, Map.of()).then().statusCode(200).body("items.size()", equalTo(2));
    }

    @Test
    void should_refuse_bad_messages() {
        String alice = user("alice");
        String id = create(alice, List.of(user("bob")), null);

        problem(send(alice, UUID.randomUUID().toString(), "hello?"), 404);
        problem(send(user("mallory"), id, "let me in"), 404);
        problem(send(alice, id, ""), 400).body("errors.field", hasItem("content"));
        problem(send(alice, id, "   "), 400).body("errors.field", hasItem("content"));
        problem(send(alice, id, "x".repeat(4001)), 400).body("detail", containsString("4000"));
        send(alice, id, "x".repeat(4000)).statusCode(201);
        problem(post(alice, id, "{}"), 400).body("errors.field", hasItem("content"));

        Map<String, String> eleven = new HashMap<>();
        for (int i = 0; i < 11; i++) {
            eleven.put("file" + i, "https://example.com/" + i);
        }
        problem(post(alice, id, Map.of("content", "files", "attachments", eleven)), 400)
                .body("errors.field", hasItem("attachments"));
        for (String url : List.of("ftp://example.com/a", "javascript:alert(1)", "not a url", "https://", "/relative")) {
            problem(post(alice, id, Map.of("content", "file", "attachments", Map.of("a", url))), 400)
                    .body("errors.field", hasItem("attachments.a"));
        }
        problem(sendKeyed(alice, id, "has space", Map.of("content", "k")), 400)
                .body("errors.field", hasItem("Idempotency-Key"));
    }

    @Test
    void should_refuse_bad_history_queries() {
        String alice = user("alice");
        String id = create(alice, List.of(user("bob")), null);
        String other = create(alice, List.of(user("carol")), null);
        sent(alice, other, "1");
        sent(alice, other, "2");
        String foreign = history(alice, other, Map.of("limit", 1))
                .then()
                .statusCode(200)
                .extract()
                .path("next");
        assertThat(foreign).isNotNull();

        problem(history(alice, UUID.randomUUID().toString(), Map.of()), 404);
        problem(history(alice, id, Map.of("cursor", "garbage")), 400);
        problem(history(alice, id, Map.of("cursor", foreign)), 400);
        problem(history(alice, id, Map.of("from", "2025-02-01T00:00:00Z", "to", "2025-01-01T00:00:00Z")), 400)
                .body("errors.field", hasItem("from"));
        problem(history(alice, id, Map.of("from", "yesterday")), 400).body("errors.field", hasItem("from"));
        problem(history(alice, id, Map.of("limit", 501)), 400).body("detail", containsString("500"));
        problem(history(alice, id, Map.of("limit", 0)), 400);
    }

    /** A first send of {@code content} by {@code sender} under {@code key} claimed it, planned as {@code planned}, and died. */
    private void diedAfterClaiming(
            UUID conversation, String sender, String key, String content, UUID planned, List<String> recipients) {
        // Its position first, as a send claims it before its key (MessagePositions).
        positions
                .head(conversation)
                .chain(head -> positions.claim(
                        conversation,
                        IdempotencyKeys.requestId(SendMessage.operation(conversation), sender, key),
                        head,
                        sender,
                        last -> planned))
                .await()
                .atMost(Duration.ofSeconds(30));
        claims.leftBy(
                SendMessage.operation(conversation),
                sender,
                key,
                new SendMessage.Fingerprint(content, Map.of()),
                new SendMessage.Plan(planned, recipients));
    }

    /** The retry of that send: a replayed 201 under the planned id. */
    private static void retryIsReplayed(String sender, UUID conversation, String key, String content, UUID planned) {
        sendKeyed(sender, conversation.toString(), key, Map.of("content", content))
                .then()
                .statusCode(201)
                .header("Idempotent-Replayed", equalTo("true"))
                .body("id", equalTo(planned.toString()));
    }

    /** POST {@code body} as a message of {@code sender} to conversation {@code id}. */
    private static Response post(String sender, String id, Object body) {
        return as(sender).contentType(ContentType.JSON).body(body).when().post("/conversations/{id}/messages", id);
    }

    /** As {@link #post}, with the Idempotency-Key {@code key}. */
    private static Response sendKeyed(String sender, String id, String key, Object body) {
        return as(sender)
                .header("Idempotency-Key", key)
                .contentType(ContentType.JSON)
                .body(body)
                .when()
                .post("/conversations/{id}/messages", id);
    }
}
