package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.user;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Who is told "created" (201) for a 1:1 conversation: only the request that created it, or a retry
 * of that request with its Idempotency-Key. The row knows its creator and creation time; two creates
 * by one caller in the same millisecond (a frozen clock here, concurrent requests in real life) must
 * not both take the row as theirs.
 */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
class DirectCreatesTest {

    @Inject
    MovableClock clock;

    @AfterEach
    void realTime() {
        clock.reset();
    }

    private static int create(String me, String other) {
        return as(me).contentType(ContentType.JSON)
                .body(Map.of("members", List.of(other)))
                .when()
                .post("/conversations")
                .then()
                .extract()
                .statusCode();
    }

    @Test
    void should_answer_201_once_when_one_caller_creates_a_pair_twice_in_one_millisecond() {
        String alice = user("alice");
        String bob = user("bob");
        clock.set(Instant.parse("2026-03-01T12:00:00.123Z"));
        assertThat(List.of(create(alice, bob), create(alice, bob), create(bob, alice)))
                .containsExactly(201, 200, 200);
    }
}
