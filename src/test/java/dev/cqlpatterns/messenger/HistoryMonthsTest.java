package dev.cqlpatterns.messenger;

import static dev.cqlpatterns.messenger.Chat.as;
import static dev.cqlpatterns.messenger.Chat.create;
import static dev.cqlpatterns.messenger.Chat.sent;
import static dev.cqlpatterns.messenger.Chat.user;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** History across month buckets: messages sent on the service's movable clock in past months. */
@QuarkusTest
@TestProfile(MovableClockProfile.class)
class HistoryMonthsTest {

    @Inject
    MovableClock clock;

    @AfterEach
    void realTime() {
        clock.reset();
    }

    @Test
    void should_walk_month_buckets_newest_first_and_slice_by_time() {
        String alice = user("alice");
        String bob = user("bob");
        UUID id = UUID.fromString(create(alice, List.of(bob), null));
        for (String at : List.of(
                "2025-01-15T08:00:00Z", "2025-02-10T09:00:00Z", "2025-02-20T10:00:00Z", "2025-04-05T11:00:00Z")) {
            clock.set(Instant.parse(at));
            sent(alice, id.toString(), "at " + at);
        }
        clock.reset();

        String next = as(bob).queryParam("limit", 2)
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body("items.sentAt", equalTo(List.of("2025-04-05T11:00:00Z", "2025-02-20T10:00:00Z")))
                // conversation + month list + April + February
                .header("X-Partitions-Read", equalTo("4"))
                .extract()
                .path("next");
        as(bob).queryParam("limit", 2)
                .queryParam("cursor", next)
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body("items.sentAt", equalTo(List.of("2025-02-10T09:00:00Z", "2025-01-15T08:00:00Z")))
                .body("next", nullValue());

        as(bob).queryParam("from", "2025-02-01T00:00:00Z")
                .queryParam("to", "2025-02-28T23:59:59Z")
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body("items.sentAt", equalTo(List.of("2025-02-20T10:00:00Z", "2025-02-10T09:00:00Z")));
        // Both ends are included, to the millisecond.
        as(bob).queryParam("from", "2025-02-10T09:00:00Z")
                .queryParam("to", "2025-04-05T11:00:00Z")
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body(
                        "items.sentAt",
                        equalTo(List.of("2025-04-05T11:00:00Z", "2025-02-20T10:00:00Z", "2025-02-10T09:00:00Z")));
        as(bob).queryParam("to", "2025-01-31T23:59:59.999Z")
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body("items.sentAt", equalTo(List.of("2025-01-15T08:00:00Z")));
        String sliced = as(bob).queryParam("from", "2025-02-01T00:00:00Z")
                .queryParam("limit", 1)
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body("items.sentAt", equalTo(List.of("2025-04-05T11:00:00Z")))
                .extract()
                .path("next");
        as(bob).queryParam("from", "2025-02-01T00:00:00Z")
                .queryParam("limit", 5)
                .queryParam("cursor", sliced)
                .when()
                .get("/conversations/{id}/messages", id)
                .then()
                .statusCode(200)
                .body("items.sentAt", equalTo(List.of("2025-02-20T10:00:00Z", "2025-02-10T09:00:00Z")))
                .body("next", nullValue());
        // The same cursor with another slice is refused.
        problem(
                as(bob).queryParam("limit", 5)
                        .queryParam("cursor", sliced)
                        .when()
                        .get("/conversations/{id}/messages", id),
                400);
    }
}
