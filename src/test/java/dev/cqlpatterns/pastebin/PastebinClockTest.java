package dev.cqlpatterns.pastebin;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.Pages;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.path.json.JsonPath;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** Expiry and day buckets by the service's clock, moved by the test instead of waited for. */
@QuarkusTest
@TestProfile(PastebinClockProfile.class)
class PastebinClockTest {

    @Inject
    MovableClock clock;

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    @AfterEach
    void back_to_the_system_clock() {
        clock.reset();
    }

    private boolean listRowExists(String id, Instant createdAt) {
        return !PastebinTest.periodRows(session, settings.keyspace(), id, createdAt)
                .isEmpty();
    }

    @Test
    void should_answer_404_once_the_expiry_passes_on_the_service_clock_before_the_ttl_does() {
        Instant now = Instant.now();
        clock.set(now);
        PastebinTest.Created paste = PastebinTest.createPublic("expires by the clock", "PT1H");
        Instant createdAt = Instant.parse(paste.json().getString("createdAt"));
        assertThat(PastebinTest.latestIds()).contains(paste.id());

        clock.set(now.plusSeconds(3600));
        problem(PastebinTest.read(paste.id()), 404);
        assertThat(PastebinTest.latestIds()).doesNotContain(paste.id());
        problem(PastebinTest.put(paste.id(), paste.secret(), Map.of("title", "x")), 404);
        problem(PastebinTest.delete(paste.id(), paste.secret()), 404);
        // the rows are still there (their TTL has most of an hour to go): the service's own check hid them
        assertThat(listRowExists(paste.id(), createdAt)).isTrue();

        clock.set(now.plusSeconds(3599));
        PastebinTest.read(paste.id()).then().statusCode(200);
    }

    @Test
    void should_page_newest_first_across_a_day_month_and_year_end() {
        // a year of its own per run, so runs on a kept node do not see each other's pastes
        int year = ThreadLocalRandom.current().nextInt(2040, 2400);
        Instant lastSecondOfYear = Instant.parse(year + "-12-31T23:59:59.250Z");
        Instant firstSecondOfNext = Instant.parse((year + 1) + "-01-01T00:00:00.500Z");

        clock.set(lastSecondOfYear);
        PastebinTest.Created older = PastebinTest.createPublic("last of " + year, null);
        clock.set(firstSecondOfNext);
        PastebinTest.Created newer = PastebinTest.createPublic("first of " + (year + 1), null);

        clock.set(firstSecondOfNext.plusSeconds(60));
        // two rows wanted (one, and one to know there is more): the new day has one, the old day the other.
        // Read: the registry, the new day's generation and the day once per listing period (1 + 7), the
        // old day's generation and the day once per period that still reaches it (1 + 6: a minute ago,
        // the 1-minute period's window began after it ended).
        JsonPath first = PastebinTest.latestPage(Map.of("limit", 1))
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "16")
                .body("items", hasSize(1))
                .body("items[0].id", equalTo(newer.id()))
                .extract()
                .jsonPath();
        // the same reads again: the rest of the new day, then the old day
        PastebinTest.latestPage(Map.of("limit", 1, "cursor", first.getString("next")))
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "16")
                .body("items", hasSize(1))
                .body("items[0].id", equalTo(older.id()))
                .body("items[0].createdAt", equalTo(lastSecondOfYear.toString()))
                .body("next", nullValue());

        // a tampered cursor is a 400
        problem(PastebinTest.latestPage(Map.of("cursor", first.getString("next") + "x")), 400);
    }

    @Test
    void should_bound_the_reads_of_a_page_when_a_day_holds_many_expired_pastes() {
        int year = ThreadLocalRandom.current().nextInt(2040, 2400);
        clock.set(Instant.parse(year + "-06-01T10:00:00Z"));
        PastebinTest.Created survivor = PastebinTest.createPublic("kept", null);
        clock.set(Instant.parse(year + "-06-02T10:00:00Z"));
        for (int i = 0; i < 10; i++) {
            PastebinTest.createPublic("gone " + i, "PT1H");
        }
        // the ten rows stay (their TTL has an hour to run) but are expired on the service's clock
        clock.set(Instant.parse(year + "-06-02T12:00:00Z"));

        // No page may make more than 4 day reads (cql-patterns.paging.max-buckets here), each the day's
        // generation and one statement per listing period (1 + 7); a page cut short says where to go on. (The period
        // index never reads the ten: their 1-hour listing ended before 11:00.)
        List<String> seen = new ArrayList<>();
        for (var page : Pages.all(10, request -> request.queryParam("limit", 1).get("/pastes"))) {
            assertThat(Integer.parseInt(page.header("X-Partitions-Read"))).isLessThanOrEqualTo(1 + 4 * (1 + 7));
            seen.addAll(page.jsonPath().getList("items.id"));
        }
        assertThat(seen).containsExactly(survivor.id());
    }
}
