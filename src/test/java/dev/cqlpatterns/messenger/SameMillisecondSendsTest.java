package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.history;
import static dev.cqlpatterns.messenger.Chat.inboxEntry;
import static dev.cqlpatterns.messenger.Chat.markRead;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two members send at once, in the same millisecond of the service's clock (the clock stands still,
 * as two replicas' clocks may read the same instant). The messages must still have one order, and
 * every view must agree on it: history lists them a millisecond or more apart, newest first; a third
 * member's inbox shows the newest as its last message (id, sender and text of the same message); the
 * unread count covers both and firstUnreadAt is the oldest unread one's time; a mark-read between
 * rounds counts exactly what came before it.
 */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
class SameMillisecondSendsTest {
    private static final int ROUNDS = 8;

    @Inject
    MovableClock clock;

    @AfterEach
    void realTime() {
        clock.reset();
    }

    @Test
    void should_give_concurrent_sends_in_one_millisecond_one_order_that_every_view_follows() {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        String id = create(alice, List.of(bob, carol), "same millisecond");
        clock.set(Instant.now());
        int unread = 0;
        for (int round = 0; round < ROUNDS; round++) {
            int r = round;
            Concurrently.run(List.of(alice, bob), sender -> sent(sender, id, sender + " in round " + r));
            unread += 2;

            JsonPath page = history(carol, id, Map.of("limit", 500))
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            List<String> sentAt = page.getList("items.sentAt");
            for (int i = 1; i < sentAt.size(); i++) {
                assertThat(Instant.parse(sentAt.get(i)))
                        .as("round %d: history, newest first, one message a millisecond: %s", round, sentAt)
                        .isBefore(Instant.parse(sentAt.get(i - 1)));
            }
            Map<String, Object> entry = inboxEntry(carol, id);
            assertThat(entry)
                    .as("round %d: carol's inbox shows history's newest message", round)
                    .containsEntry("lastMessageId", page.getString("items[0].id"))
                    .containsEntry("lastSender", page.getString("items[0].sender"))
                    .containsEntry("lastMessage", page.getString("items[0].content"))
                    .containsEntry("lastAt", page.getString("items[0].sentAt"))
                    .containsEntry("unreadCount", unread)
                    .containsEntry("firstUnreadAt", page.getString("items[" + (unread - 1) + "].sentAt"));
            if (round % 3 == 2) {
                markRead(carol, id).statusCode(200);
                unread = 0;
                assertThat(inboxEntry(carol, id)).containsEntry("unreadCount", 0);
            }
        }
    }
}
