package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.platform.time.TimeUuids;
import dev.cqlpatterns.testsupport.ContractClient;
import dev.cqlpatterns.testsupport.SignUp;
import dev.cqlpatterns.testsupport.Tokens;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;
import io.restassured.specification.RequestSpecification;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Test steps of the messenger, run over HTTP as a client would. */
final class Chat {

    private Chat() {}

    /** A signed-up user no other test uses. */
    static String user(String name) {
        return SignUp.user(unknown(name));
    }

    /** A username no other test uses, of nobody who signed up. */
    static String unknown(String name) {
        return name + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    static RequestSpecification as(String username) {
        return given().header("Authorization", Tokens.bearer(username));
    }

    static String create(String creator, List<String> members, String title) {
        return createdId(as(creator)
                .contentType(ContentType.JSON)
                .body(title == null ? Map.of("members", members) : Map.of("members", members, "title", title))
                .when()
                .post("/conversations"));
    }

    static ValidatableResponse send(String sender, String conversationId, String content) {
        return as(sender)
                .contentType(ContentType.JSON)
                .body(Map.of("content", content))
                .when()
                .post("/conversations/{id}/messages", conversationId)
                .then();
    }

    /** The id of a message {@code sender} sent, without REST Assured ({@link ContractClient#TEST_APPLICATION}). */
    static String sentQuickly(String sender, String conversationId, String content) {
        String created = ContractClient.TEST_APPLICATION.expect(
                201, "POST", "/conversations/" + conversationId + "/messages", sender, Map.of("content", content));
        return ContractClient.json(created).path("id").asText();
    }

    static String sent(String sender, String conversationId, String content) {
        return send(sender, conversationId, content).statusCode(201).extract().path("id");
    }

    static ValidatableResponse inbox(String username) {
        return as(username).when().get("/inbox").then().statusCode(200);
    }

    /** The caller's inbox entry of one conversation, as JSON. */
    static Map<String, Object> inboxEntry(String username, String conversationId) {
        return inbox(username)
                .extract()
                .jsonPath()
                .getMap("items.find { it.conversationId == '" + conversationId + "' }");
    }

    /**
     * {@code member}'s inbox says {@code count} unread in the conversation, the first at the time of
     * message {@code firstId} (null: none).
     */
    static void assertUnread(String member, String conversationId, int count, String firstId) {
        assertThat(inboxEntry(member, conversationId))
                .containsEntry("unreadCount", count)
                .containsEntry("firstUnreadAt", firstId == null ? null : timeOf(firstId));
    }

    /** GET the messages of conversation {@code id} as {@code caller} with {@code query}, the answer not yet checked. */
    static Response history(String caller, Object id, Map<String, ?> query) {
        return as(caller).queryParams(query).when().get("/conversations/{id}/messages", id);
    }

    /** GET the inbox of {@code caller} with {@code query}, the answer not yet checked. */
    static Response inboxPage(String caller, Map<String, ?> query) {
        return as(caller).queryParams(query).when().get("/inbox");
    }

    /** The instant of a message (its id is a timeuuid), as the API writes it. */
    static String timeOf(String messageId) {
        return TimeUuids.instant(UUID.fromString(messageId)).toString();
    }

    static ValidatableResponse markRead(String username, String conversationId) {
        return as(username)
                .when()
                .post("/conversations/{id}/read", conversationId)
                .then();
    }

    /**
     * {@code reader} marks conversation {@code id} read, and finds nothing unread; {@code sender} sends
     * one more, and {@code reader} finds it the one unread message.
     */
    static void readThenOneMore(String reader, String sender, String id) {
        markRead(reader, id).statusCode(200);
        assertUnread(reader, id, 0, null);
        String after = sent(sender, id, "after the mark-read");
        assertUnread(reader, id, 1, after);
    }

    /** {@code caller} adds {@code member} to the conversation {@code id}. */
    static Response join(String caller, String id, String member) {
        return as(caller).when().put("/conversations/{id}/members/{u}", id, member);
    }

    /** {@code caller} removes {@code member} from the conversation {@code id}. */
    static Response remove(String caller, String id, String member) {
        return as(caller).when().delete("/conversations/{id}/members/{u}", id, member);
    }
}
