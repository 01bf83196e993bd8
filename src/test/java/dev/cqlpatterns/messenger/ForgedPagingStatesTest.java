package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.testsupport.CassandraTestResource;
import dev.cqlpatterns.testsupport.ForgedPagingStates;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * GET /messages?sender= carries the driver's paging state in its cursor. Signed with the service's
 * own key (as if it had leaked), a cursor holding a paging state Cassandra cannot read used to reach
 * Cassandra, which closed the connection: every request in flight on it failed, whoever sent it. Now
 * each such cursor is a 400 before anything is sent, the requests of other callers running at the
 * same time all succeed, and the node logs no protocol exception.
 */
@QuarkusTest
class ForgedPagingStatesTest {
    private static final int BYSTANDERS = 4;

    @Inject
    Cursors cursors;

    @Test
    void should_refuse_a_signed_cursor_with_a_forged_paging_state_and_fail_no_other_request() throws Exception {
        String alice = user("alice");
        String bob = user("bob");
        String carol = user("carol");
        List<String> conversations = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            String id = create(bob, List.of(alice, carol), "forged " + i);
            conversations.add(id);
            sent(bob, id, "one");
            sent(bob, id, "two");
        }
        String scope = "by-sender:" + alice + ":" + bob;
        String real = as(alice)
                .queryParams(Map.of("sender", bob, "limit", 1))
                .when()
                .get("/messages")
                .then()
                .statusCode(200)
                .extract()
                .path("next");
        String state = cursors.decode(scope, real, MessagesBySender.Position.class)
                .orElseThrow()
                .pagingState();
        List<String> forged = ForgedPagingStates.from(state);

        long logFrom = logLength();
        AtomicBoolean running = new AtomicBoolean(true);
        AtomicInteger answered = new AtomicInteger();
        ConcurrentLinkedQueue<String> failed = new ConcurrentLinkedQueue<>();
        ExecutorService bystanders = Executors.newFixedThreadPool(BYSTANDERS);
        for (int b = 0; b < BYSTANDERS; b++) {
            String conversation = conversations.get(b % conversations.size());
            bystanders.submit(() -> {
                while (running.get()) {
                    for (var request : List.of(
                            as(alice).queryParam("sender", bob).when().get("/messages"),
                            as(bob).when().get("/conversations/{id}/messages", conversation),
                            as(alice).when().get("/inbox"))) {
                        if (request.statusCode() != 200) {
                            failed.add(request.statusCode() + " " + request.asString());
                        }
                        answered.incrementAndGet();
                    }
                }
            });
        }
        try {
            Thread.sleep(300);
            for (int round = 0; round < 5; round++) {
                for (String state64 : forged) {
                    String cursor = cursors.encode(scope, new MessagesBySender.Position(state64));
                    problem(
                                    as(alice)
                                            .queryParams(Map.of("sender", bob, "cursor", cursor))
                                            .when()
                                            .get("/messages"),
                                    400)
                            .body("detail", equalTo("cursor holds no position of this list"));
                }
            }
            Thread.sleep(300);
        } finally {
            running.set(false);
            bystanders.shutdown();
            assertThat(bystanders.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(answered.get()).as("requests of the other callers").isGreaterThan(BYSTANDERS);
        assertThat(failed).as("requests of other callers that failed meanwhile").isEmpty();
        assertThat(logSince(logFrom))
                .as("the test node's log while the forged cursors came")
                .doesNotContain("Protocol exception");
    }

    private static long logLength() throws IOException {
        return CassandraTestResource.usesLocalNode() ? Files.size(CassandraTestResource.localNodeLog()) : 0;
    }

    private static String logSince(long from) throws IOException {
        if (!CassandraTestResource.usesLocalNode()) {
            return "";
        }
        byte[] log = Files.readAllBytes(CassandraTestResource.localNodeLog());
        return new String(
                log, (int) Math.min(from, log.length), (int) Math.max(0, log.length - from), StandardCharsets.UTF_8);
    }
}
