package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.markRead;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Unread counts are exact up to the cap, cap + 1 ("3+") above: from the summaries, and from at most
 * cap + 1 unread markers per conversation where a summary counts its markers (BeforePositions).
 */
@QuarkusTest
@TestProfile(UnreadCapTest.SmallCap.class)
class UnreadCapTest {
    static final int CAP = 3;

    public static class SmallCap implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of("cql-patterns.messenger.unread-count-cap", String.valueOf(CAP));
        }
    }

    @Test
    void should_count_exactly_up_to_the_cap_and_say_more_above_it() {
        String alice = user("alice");
        String bob = user("bob");
        String id = create(alice, List.of(bob), null);
        String first = sent(alice, id, "m0");
        for (int i = 1; i < CAP; i++) {
            sent(alice, id, "m" + i);
        }
        assertThat(Chat.inboxEntry(bob, id)).containsEntry("unreadCount", CAP);
        sent(alice, id, "one more");
        sent(alice, id, "and another");
        Chat.assertUnread(bob, id, CAP + 1, first);

        Chat.readThenOneMore(bob, alice, id);
    }

    @Inject
    StoredRows stored;

    @Test
    void should_count_several_conversations_in_one_read_and_the_rest_one_by_one_when_it_is_full() {
        String bob = user("bob");
        Map<String, String> senderOf = new LinkedHashMap<>();
        Map<String, Integer> sends = new LinkedHashMap<>();
        for (String name : List.of("a", "b", "c", "d")) {
            String sender = user(name);
            String id = create(sender, List.of(bob), null);
            senderOf.put(id, sender);
            sends.put(id, name.equals("b") ? CAP + 2 : name.equals("c") ? 1 : 2);
        }
        Map<String, String> first = new HashMap<>();
        sends.forEach((id, n) -> {
            for (int i = 0; i < n; i++) {
                first.putIfAbsent(id, sent(senderOf.get(id), id, "m" + i));
            }
        });
        // Summaries that count their markers (memberships begun before positions): the markers' reads below.
        sends.keySet().forEach(id -> BeforePositions.summary(stored, bob, id));
        // d: read, then one more.
        String read = List.copyOf(sends.keySet()).get(3);
        markRead(bob, read).statusCode(200);
        first.put(read, sent(senderOf.get(read), read, "after the mark-read"));
        sends.put(read, 1);

        // 2 + 5 + 1 + 1 markers: more than one read of cap + 1 holds, so some are counted again one by one.
        for (int pass = 0; pass < 2; pass++) {
            sends.forEach((id, n) -> Chat.assertUnread(bob, id, Math.min(n, CAP + 1), first.get(id)));
        }
    }
}
