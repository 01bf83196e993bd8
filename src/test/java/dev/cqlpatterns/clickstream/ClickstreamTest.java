package dev.cqlpatterns.clickstream;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.anyOf;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasSize;
import static org.hamcrest.Matchers.nullValue;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.testsupport.MovableClock;
import dev.cqlpatterns.testsupport.MovableClockProfile;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import io.restassured.path.json.JsonPath;
import io.restassured.response.ValidatableResponse;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

@QuarkusTest
@TestProfile(MovableClockProfile.class)
class ClickstreamTest {

    @Inject
    MovableClock clock;

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    /**
     * The clickstream is one global series and the test node keeps its data between runs: each
     * test writes into a year of its own. (Timeuuids reach to the year 5236.)
     */
    private static int freshYear() {
        return ThreadLocalRandom.current().nextInt(2300, 5000);
    }

    @AfterEach
    void back_to_system_time() {
        clock.reset();
    }

    private ValidatableResponse click(String at, Map<String, Object> body) {
        clock.set(Instant.parse(at));
        return given().contentType(ContentType.JSON)
                .body(body)
                .when()
                .post("/clicks")
                .then();
    }

    /** Records a click at {@code at}; returns its id. */
    private String click(String at, String url) {
        JsonPath created =
                click(at, Map.of("url", url)).statusCode(201).extract().jsonPath();
        assertThat(Instant.parse(created.getString("at"))).isEqualTo(Instant.parse(at));
        return created.getString("id");
    }

    private static String month(int year, int month) {
        return String.format("%04d-%02d", year, month);
    }

    private static ValidatableResponse list(String from, String to, Integer limit, String cursor) {
        var request = given();
        if (from != null) {
            request.queryParam("from", from);
        }
        if (to != null) {
            request.queryParam("to", to);
        }
        if (limit != null) {
            request.queryParam("limit", limit);
        }
        if (cursor != null) {
            request.queryParam("cursor", cursor);
        }
        return request.when().get("/clicks").then();
    }

    @Test
    void should_read_clicks_newest_first_across_a_year_boundary_with_paging() {
        int year = freshYear();
        int next = year + 1;
        click(year + "-10-15T10:00:00Z", "https://example.org/before-the-range");
        List<String> written = new ArrayList<>();
        for (String at : List.of(
                year + "-11-15T10:00:00Z",
                year + "-11-30T23:59:59.999Z",
                year + "-12-01T00:00:00Z",
                year + "-12-31T23:59:59.999Z",
                next + "-01-01T00:00:00Z",
                next + "-01-20T08:00:00Z",
                next + "-02-03T09:00:00Z",
                next + "-02-03T09:00:01Z")) {
            written.add(click(at, "https://example.org/" + at));
        }
        click(next + "-03-01T00:00:00Z", "https://example.org/after-the-range");
        clock.reset();

        String from = month(year, 11);
        String to = month(next, 2);
        // Page 1: February and January (2 months x 4 shards) fill limit + 1 = 4; plus the registry.
        JsonPath page1 = list(from, to, 3, null)
                .statusCode(200)
                .header("X-Partitions-Read", equalTo("9"))
                .body("items", hasSize(3))
                .extract()
                .jsonPath();
        JsonPath page2 = list(from, to, 3, page1.getString("next"))
                .statusCode(200)
                .body("items", hasSize(3))
                .extract()
                .jsonPath();
        JsonPath page3 = list(from, to, 3, page2.getString("next"))
                .statusCode(200)
                .body("items", hasSize(2))
                .body("next", nullValue())
                .extract()
                .jsonPath();

        List<String> read = new ArrayList<>();
        List<Instant> times = new ArrayList<>();
        for (JsonPath page : List.of(page1, page2, page3)) {
            read.addAll(page.getList("items.id"));
            page.getList("items.at", String.class).forEach(at -> times.add(Instant.parse(at)));
        }
        List<String> newestFirst = new ArrayList<>(written);
        java.util.Collections.reverse(newestFirst);
        assertThat(read).containsExactlyElementsOf(newestFirst);
        assertThat(times).first().isEqualTo(Instant.parse(next + "-02-03T09:00:01Z"));
        assertThat(times).last().isEqualTo(Instant.parse(year + "-11-15T10:00:00Z"));
        assertThat(page1.getString("items[0].url")).isEqualTo("https://example.org/" + next + "-02-03T09:00:01Z");
    }

    @Test
    void should_read_only_the_months_of_the_range() {
        int year = freshYear();
        click(year + "-05-10T00:00:00Z", "https://example.org/may");
        String june = click(year + "-06-10T00:00:00Z", "https://example.org/june");
        click(year + "-07-10T00:00:00Z", "https://example.org/july");
        clock.reset();

        list(month(year, 6), month(year, 6), null, null)
                .statusCode(200)
                // the registry, then June's 4 shards
                .header("X-Partitions-Read", equalTo("5"))
                .body("items.id", equalTo(List.of(june)))
                .body("items[0].url", equalTo("https://example.org/june"));
        // a range with no clicks reads the registry only
        list(month(year, 1), month(year, 4), null, null)
                .statusCode(200)
                .header("X-Partitions-Read", equalTo("1"))
                .body("items", hasSize(0))
                .body("next", nullValue());
    }

    @Test
    void should_store_the_given_ip_or_the_clients_address() {
        int year = freshYear();
        click(year + "-03-01T00:00:00Z", Map.of("url", "https://example.org/v4", "ip", "98.203.153.64"))
                .statusCode(201);
        click(year + "-03-01T00:00:01Z", Map.of("url", "https://example.org/v6", "ip", "2001:DB8:0:0:0:0:0:1"))
                .statusCode(201);
        click(year + "-03-01T00:00:02Z", Map.of("url", "http://example.org/default"))
                .statusCode(201);
        clock.reset();

        list(month(year, 3), month(year, 3), null, null)
                .statusCode(200)
                .body(
                        "items.url",
                        equalTo(List.of(
                                "http://example.org/default", "https://example.org/v6", "https://example.org/v4")))
                .body("items[0].ip", anyOf(equalTo("127.0.0.1"), equalTo("::1")))
                .body("items[1].ip", equalTo("2001:db8::1"))
                .body("items[2].ip", equalTo("98.203.153.64"));
    }

    @Test
    void should_reject_invalid_urls() {
        String at = freshYear() + "-01-01T00:00:00Z";
        for (String bad : List.of(
                "not a url",
                "ftp://example.org/file",
                "http://",
                "/relative/path",
                "javascript:alert(1)",
                "mailto:someone@example.org",
                "https://" + "a".repeat(2048) + ".org")) {
            click(at, Map.of("url", bad))
                    .statusCode(400)
                    .contentType(Problem.MEDIA_TYPE)
                    .body("errors[0].field", equalTo("url"));
        }
        click(at, Map.of("url", " "))
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("errors[0].field", equalTo("url"));
        click(at, Map.of("ip", "1.2.3.4"))
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("errors[0].field", equalTo("url"));
    }

    @Test
    void should_take_the_clients_address_from_the_proxy_when_behind_one() {
        int year = freshYear();
        clock.set(Instant.parse(year + "-05-01T00:00:00Z"));
        given().contentType(ContentType.JSON)
                .header("X-Forwarded-For", "203.0.113.7, 10.0.0.2")
                .body(Map.of("url", "https://example.org/forwarded"))
                .when()
                .post("/clicks")
                .then()
                .statusCode(201);
        clock.reset();

        list(month(year, 5), month(year, 5), null, null)
                .statusCode(200)
                .body("items.url", equalTo(List.of("https://example.org/forwarded")))
                .body("items[0].ip", equalTo("203.0.113.7"));
    }

    @Test
    void should_reject_ips_that_are_not_literal_addresses() {
        String at = freshYear() + "-01-01T00:00:00Z";
        for (String bad : List.of(
                "999.1.1.1",
                "1.2.3",
                "01.2.3.4",
                "localhost",
                "example.org",
                "fe80::1%eth0",
                "[::1]",
                "2001:db8::g",
                "1.2.3.4.5",
                "")) {
            Map<String, Object> body = new HashMap<>();
            body.put("url", "https://example.org/");
            body.put("ip", bad);
            click(at, body).statusCode(400).contentType(Problem.MEDIA_TYPE).body("errors[0].field", equalTo("ip"));
        }
    }

    @Test
    void should_reject_bad_month_ranges_and_cursors() {
        list("2025-02", "2025-01", null, null)
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("errors[0].field", equalTo("from"));
        for (String bad : List.of("2025-13", "2025-1", "25-01", "2025-01-01", "abc")) {
            list(bad, "2025-12", null, null)
                    .statusCode(400)
                    .contentType(Problem.MEDIA_TYPE)
                    .body("errors[0].field", equalTo("from"));
            list("2025-01", bad, null, null)
                    .statusCode(400)
                    .contentType(Problem.MEDIA_TYPE)
                    .body("errors[0].field", equalTo("to"));
        }
        // 24 months, both ends included, is the default maximum; 25 is over it
        list("2024-01", "2025-12", null, null).statusCode(200);
        list("2023-12", "2025-12", null, null)
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("errors[0].field", equalTo("from"));
        list("2024-01", "2025-12", null, "garbage")
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
        list("2024-01", "2025-12", 0, null)
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("errors[0].field", equalTo("limit"));
    }

    @Test
    void should_refuse_a_cursor_of_another_range() {
        int year = freshYear();
        click(year + "-04-01T00:00:00Z", "https://example.org/a");
        click(year + "-04-01T00:00:01Z", "https://example.org/b");
        clock.reset();
        String next = list(month(year, 4), month(year, 4), 1, null)
                .statusCode(200)
                .extract()
                .path("next");
        assertThat(next).isNotNull();
        list(month(year, 3), month(year, 4), 1, next)
                .statusCode(400)
                .contentType(Problem.MEDIA_TYPE)
                .body("type", equalTo("urn:cql-patterns:problem:bad-cursor"));
    }

    @Test
    void should_merge_shards_in_cassandras_timeuuid_order() {
        // Timeuuids of the same instant differ only in their last 8 bytes, which Cassandra compares
        // as signed bytes: the merge of the shards must agree, or paging would skip or repeat rows.
        int year = freshYear();
        long millis = Instant.parse(year + "-09-01T00:00:00Z").toEpochMilli();
        Random random = new Random(42);
        String keyspace = settings.keyspace();
        for (int i = 0; i < 40; i++) {
            long msb = Uuids.startOf(millis + (i % 3)).getMostSignificantBits();
            UUID id = new UUID(msb, random.nextLong());
            session.execute(SimpleStatement.newInstance(
                    "INSERT INTO " + keyspace
                            + ".clickstream (year, month, shard, click_id, url) VALUES (?, 9, 0, ?, 'https://example.org/')",
                    year,
                    id));
        }
        List<UUID> cassandraOrder = session
                .execute(SimpleStatement.newInstance(
                        "SELECT click_id FROM " + keyspace + ".clickstream WHERE year = ? AND month = 9 AND shard = 0",
                        year))
                .all()
                .stream()
                .map((Row row) -> row.getUuid(0))
                .toList();
        List<UUID> ours = new ArrayList<>(cassandraOrder);
        java.util.Collections.shuffle(ours, random);
        ours.sort(Clickstream.TIMEUUID_ORDER.reversed());
        assertThat(cassandraOrder).hasSize(40);
        assertThat(ours).containsExactlyElementsOf(cassandraOrder);
    }
}
