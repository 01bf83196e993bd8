package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.SmallLimitsProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Unread counts, from the summaries' two numbers, are exact up to the cap and cap + 1 ("3+") above. */
@QuarkusTest
@TestProfile(SmallLimitsProfile.class)
class UnreadCapTest {
    static final int CAP = SmallLimitsProfile.UNREAD_CAP;

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
}
