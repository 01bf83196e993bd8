package dev.cqlpatterns.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.cqlpatterns.client.ApiClient;
import dev.cqlpatterns.client.ApiException;
import dev.cqlpatterns.client.api.GroupsApi;
import dev.cqlpatterns.client.api.MessengerApi;
import dev.cqlpatterns.client.api.PastebinApi;
import dev.cqlpatterns.client.api.RingApi;
import dev.cqlpatterns.client.api.SongsApi;
import dev.cqlpatterns.client.api.UsersApi;
import dev.cqlpatterns.client.model.Conversation;
import dev.cqlpatterns.client.model.CreatePasteRequest;
import dev.cqlpatterns.client.model.CreatedPaste;
import dev.cqlpatterns.client.model.GroupMember;
import dev.cqlpatterns.client.model.InboxEntry;
import dev.cqlpatterns.client.model.ListedPaste;
import dev.cqlpatterns.client.model.Message;
import dev.cqlpatterns.client.model.NewConversation;
import dev.cqlpatterns.client.model.NewMessage;
import dev.cqlpatterns.client.model.NewUser;
import dev.cqlpatterns.client.model.PageInboxEntry;
import dev.cqlpatterns.client.model.Paste;
import dev.cqlpatterns.client.model.ReadReceipt;
import dev.cqlpatterns.client.model.Ring;
import dev.cqlpatterns.client.model.SentMessage;
import dev.cqlpatterns.client.model.Song;
import dev.cqlpatterns.client.model.SongTags;
import dev.cqlpatterns.client.model.TaggedSong;
import dev.cqlpatterns.client.model.UpdatePasteRequest;
import dev.cqlpatterns.client.model.User;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * Drives the running service only through the Java client generated from openapi.yaml at build
 * time, as a user of the service would: if the contract and the service drift apart, a call here
 * fails to deserialize or gets an unexpected status.
 */
@QuarkusTest
class GeneratedClientJourneyTest {

    @TestHTTPResource("/")
    URL service;

    /** A client for the public routes. */
    private ApiClient client() {
        ApiClient client = new ApiClient();
        client.updateBaseUri(
                URI.create(service.toString()).resolve("/").toString().replaceAll("/$", ""));
        return client;
    }

    /** A client that calls as {@code username}: an RS256 token with that subject, as bin/token makes. */
    private ApiClient as(String username) {
        ApiClient client = client();
        String bearer = Tokens.bearer(username);
        client.setRequestInterceptor(request -> request.header("Authorization", bearer));
        return client;
    }

    @Test
    void should_read_the_ring_through_the_generated_client() throws Exception {
        Ring ring = new RingApi(client()).tokenRingRing();
        assertThat(ring.getNodes()).isNotEmpty();
        assertThat(ring.getRanges()).hasSize(ring.getNodes().get(0).getRanges());
        // The partition key as the client's own List<String>: one column=value each.
        var placement = new RingApi(client()).partitionTokenToken("leases", List.of("name=journey"));
        assertThat(placement.getPartitionKey()).containsEntry("name", "journey");
        assertThat(placement.getReplicas())
                .containsExactly(ring.getNodes().get(0).getAddress());
    }

    @Test
    void should_live_a_day_of_the_service_through_the_generated_client() throws Exception {
        String day = UUID.randomUUID().toString().substring(0, 8);
        String alice = "alice_" + day;
        String bob = "bob_" + day;

        // Two people sign up.
        User aliceUser = new UsersApi(as(alice))
                .createUserCreate(new NewUser()
                        .username(alice)
                        .email(alice + "@example.com")
                        .age(31));
        new UsersApi(as(bob)).createUserCreate(new NewUser().username(bob).email(bob + "@example.com"));
        assertThat(aliceUser.getUsername()).isEqualTo(alice);
        // Alice finds her own account by email; Bob sees her username only, and cannot look her email up.
        assertThat(new UsersApi(as(alice))
                        .findUserByEmailFind(alice + "@example.com")
                        .getAge())
                .isEqualTo(31);
        User aliceSeenByBob = new UsersApi(as(bob)).getUserGet(alice);
        assertThat(aliceSeenByBob.getUsername()).isEqualTo(alice);
        assertThat(aliceSeenByBob.getEmail()).isNull();
        assertThat(catchThrowableOfType(
                                ApiException.class,
                                () -> new UsersApi(as(bob)).findUserByEmailFind(alice + "@example.com"))
                        .getCode())
                .isEqualTo(404);

        // Alice starts a conversation with Bob; starting it again finds the same one.
        MessengerApi aliceChat = new MessengerApi(as(alice));
        MessengerApi bobChat = new MessengerApi(as(bob));
        Conversation talk = aliceChat.createConversationCreate(
                new NewConversation().members(List.of(bob)), UUID.randomUUID().toString());
        assertThat(talk.getMembers()).containsExactlyInAnyOrder(alice, bob);
        assertThat(bobChat.createConversationCreate(new NewConversation().members(List.of(alice)), null)
                        .getId())
                .isEqualTo(talk.getId());
        UUID talkId = talk.getId();

        // They exchange messages; a retried send with its key is stored once.
        String key = UUID.randomUUID().toString();
        SentMessage hello = aliceChat.sendMessageSend(talkId, new NewMessage().content("Lunch at noon?"), key);
        assertThat(aliceChat
                        .sendMessageSend(talkId, new NewMessage().content("Lunch at noon?"), key)
                        .getId())
                .isEqualTo(hello.getId());
        bobChat.sendMessageSend(talkId, new NewMessage().content("Yes, the usual place"), null);
        bobChat.sendMessageSend(talkId, new NewMessage().content("I'll book a table"), null);

        List<Message> history = aliceChat
                .conversationHistoryHistory(talkId, null, null, 10, null)
                .getItems();
        assertThat(history)
                .extracting(Message::getContent)
                .containsExactly("I'll book a table", "Yes, the usual place", "Lunch at noon?");

        // Alice loads her inbox: Bob's two messages are unread.
        PageInboxEntry inbox = aliceChat.inboxInbox(null, 10);
        InboxEntry entry = inbox.getItems().stream()
                .filter(e -> e.getConversationId().equals(talkId))
                .findFirst()
                .orElseThrow();
        assertThat(entry.getPartner()).isEqualTo(bob);
        assertThat(entry.getLastSender()).isEqualTo(bob);
        assertThat(entry.getLastMessage()).isEqualTo("I'll book a table");
        assertThat(entry.getUnreadCount()).isEqualTo(2L);
        assertThat(entry.getFirstUnreadAt()).isNotNull();

        // She reads them: nothing unread, and she is among those who saw Bob's messages.
        ReadReceipt receipt = aliceChat.markReadMarkRead(talkId);
        assertThat(receipt.getMarkedSeen()).isEqualTo(2);
        InboxEntry read = aliceChat.inboxInbox(null, 10).getItems().stream()
                .filter(e -> e.getConversationId().equals(talkId))
                .findFirst()
                .orElseThrow();
        assertThat(read.getUnreadCount()).isZero();
        assertThat(read.getFirstUnreadAt()).isNull();
        assertThat(bobChat.conversationHistoryHistory(talkId, null, null, 1, null)
                        .getItems()
                        .get(0)
                        .getSeenBy())
                .containsExactly(alice);

        // A paste: created public with a short life (too short to be listed: under a minute), updated
        // with its secret, then gone.
        PastebinApi pastes = new PastebinApi(client());
        // With an Idempotency-Key, a retry of the create answers the same paste and secret.
        CreatePasteRequest newPaste = new CreatePasteRequest()
                .title("notes " + day)
                .body("SELECT * FROM inbox_by_user WHERE username = ?;")
                ._private(false)
                .expiresIn("PT3S");
        String pasteKey = UUID.randomUUID().toString();
        CreatedPaste created = pastes.createPasteCreate(newPaste, pasteKey);
        assertThat(pastes.createPasteCreate(newPaste, pasteKey).getSecret()).isEqualTo(created.getSecret());
        UUID pasteId = created.getId();
        assertThat(pastes.latestPublicPastesLatest(null, 100).getItems())
                .extracting(ListedPaste::getId)
                .doesNotContain(pasteId);
        // A paste of a day is listed, until its owner deletes it.
        CreatedPaste menu = pastes.createPasteCreate(
                new CreatePasteRequest()
                        .title("menu " + day)
                        .body("soup")
                        ._private(false)
                        .expiresIn("P1D"),
                null);
        assertThat(pastes.latestPublicPastesLatest(null, 100).getItems())
                .extracting(ListedPaste::getId)
                .contains(menu.getId());
        pastes.deletePasteDelete(menu.getId(), menu.getSecret());
        assertThat(pastes.latestPublicPastesLatest(null, 100).getItems())
                .extracting(ListedPaste::getId)
                .doesNotContain(menu.getId());
        Paste updated = pastes.updatePasteUpdate(
                pasteId, created.getSecret(), new UpdatePasteRequest().title("lunch notes " + day));
        assertThat(updated.getTitle()).isEqualTo("lunch notes " + day);
        assertThat(pastes.readPasteRead(pasteId).getBody()).startsWith("SELECT");
        ApiException wrongSecret = catchThrowableOfType(
                ApiException.class,
                () -> pastes.updatePasteUpdate(pasteId, "N".repeat(43), new UpdatePasteRequest().title("stolen")));
        assertThat(wrongSecret.getCode()).isEqualTo(403);

        Instant expiresAt = Instant.now().plus(Duration.ofSeconds(3));
        while (Instant.now().isBefore(expiresAt.plusMillis(1500))) {
            Thread.sleep(250);
        }
        assertThat(catchThrowableOfType(ApiException.class, () -> pastes.readPasteRead(pasteId))
                        .getCode())
                .isEqualTo(404);
        assertThat(pastes.latestPublicPastesLatest(null, 100).getItems())
                .extracting(ListedPaste::getId)
                .doesNotContain(pasteId);

        // Bob joins a group and is the latest joiner.
        String group = "lunch-club-" + day;
        GroupMember joined = new GroupsApi(as(bob)).joinGroupJoin(group, bob);
        assertThat(joined.getUsername()).isEqualTo(bob);
        assertThat(new GroupsApi(as(alice)).latestJoinersLatest(group, null, 10).getItems())
                .extracting(GroupMember::getUsername)
                .containsExactly(bob);

        // Alice adds a song (she owns it) and tags it, anyone finds it by the tag, and Bob may not retag it.
        String tag = "lunch-" + day;
        String title = "So What " + day;
        SongsApi songs = new SongsApi(as(alice));
        songs.putSongPut("Kind of Blue", "Miles Davis", title, new SongTags().tags(List.of("jazz")));
        Song tagged = songs.addTagAdd("Kind of Blue", "Miles Davis", title, tag);
        assertThat(tagged.getTags()).contains("jazz", tag);
        assertThat(tagged.getOwner()).isEqualTo(alice);
        assertThat(new SongsApi(client()).songsByTagByTag(tag, null, 10).getItems())
                .extracting(TaggedSong::getSong)
                .containsExactly(title);
        assertThat(catchThrowableOfType(
                                ApiException.class,
                                () -> new SongsApi(as(bob)).removeTagRemove("Kind of Blue", "Miles Davis", title, tag))
                        .getCode())
                .isEqualTo(403);
    }
}
