package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sentQuickly;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.ChurnProfile;
import dev.cqlpatterns.testsupport.Concurrently;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.logging.Logger;
import org.junit.jupiter.api.Test;

/**
 * Seed 001 loses unread increments when two sends read-modify-write the same JSON blob. Here 8
 * members send 100 messages each at the same time to one conversation; every unread count must
 * come out exact and the history must hold each message exactly once.
 */
@QuarkusTest
// 800 unread messages: above the inbox's default cap of exact counts (99), within the profile's.
@TestProfile(ChurnProfile.class)
class ConcurrentSendsTest {
    private static final Logger LOG = Logger.getLogger(ConcurrentSendsTest.class);
    private static final int SENDERS = 8;
    private static final int MESSAGES_EACH = 100;

    @Test
    void should_count_every_unread_message_and_keep_each_message_once_under_concurrent_sends() {
        List<String> senders = new ArrayList<>();
        for (int i = 0; i < SENDERS; i++) {
            senders.add(user("sender" + i));
        }
        String reader = user("reader");
        List<String> invited = new ArrayList<>(senders.subList(1, SENDERS));
        invited.add(reader);
        String id = create(senders.get(0), invited, "Busy");

        Set<String> sentIds = ConcurrentHashMap.newKeySet();
        long started = System.nanoTime();
        long cpuBefore = processCpuNanos();
        Concurrently.run(senders, sender -> {
            for (int n = 0; n < MESSAGES_EACH; n++) {
                sentIds.add(sentQuickly(sender, id, sender + " #" + n));
            }
            return sender;
        });
        long millis = (System.nanoTime() - started) / 1_000_000;
        long cpuMillis = (processCpuNanos() - cpuBefore) / 1_000_000;
        // CPU of this JVM (service and HTTP clients; Cassandra runs apart) tells more than wall time
        // on a shared machine.
        LOG.infof(
                "%d concurrent senders sent %d messages in %d ms (%.0f sends/s), %d ms of CPU in this JVM",
                SENDERS, SENDERS * MESSAGES_EACH, millis, SENDERS * MESSAGES_EACH * 1000.0 / millis, cpuMillis);
        assertThat(sentIds).hasSize(SENDERS * MESSAGES_EACH);

        assertThat(unread(reader, id)).isEqualTo(SENDERS * MESSAGES_EACH);
        for (String sender : senders) {
            assertThat(unread(sender, id)).as("unread of %s", sender).isEqualTo((SENDERS - 1) * MESSAGES_EACH);
        }

        List<String> history = new ArrayList<>();
        String cursor = null;
        do {
            var request = as(reader).queryParam("limit", 500);
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            JsonPath page = request.when()
                    .get("/conversations/{id}/messages", id)
                    .then()
                    .statusCode(200)
                    .extract()
                    .jsonPath();
            history.addAll(page.getList("items.id"));
            cursor = page.getString("next");
        } while (cursor != null);
        assertThat(history).hasSize(SENDERS * MESSAGES_EACH);
        assertThat(new HashSet<>(history)).isEqualTo(sentIds);
    }

    private static long processCpuNanos() {
        return ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean os
                ? os.getProcessCpuTime()
                : 0;
    }

    private static int unread(String username, String conversationId) {
        return Chat.inbox(username)
                .extract()
                .jsonPath()
                .getInt("items.find { it.conversationId == '" + conversationId + "' }.unreadCount");
    }
}
