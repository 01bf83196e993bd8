package dev.cqlpatterns.delivery;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.platform.SmallRateLimitsProfile;
import dev.cqlpatterns.platform.buckets.BucketRoller;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.scheduling.JobRunner;
import dev.cqlpatterns.testsupport.FarTicks;
import dev.cqlpatterns.testsupport.Metrics;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * Every metric the Grafana dashboard and the alert rules read is one the service exports: the
 * service is exercised (routes, both jobs, a 429 with SmallRateLimitsProfile's small budgets, a
 * problem), then its own /q/metrics is read and each metric name an expression names (exactly, with
 * its _bucket/_count/_sum/_total suffix) must be among the exported names, with every label the
 * expression matches on.
 */
@QuarkusTest
@TestProfile(SmallRateLimitsProfile.class)
class MonitoringMetricsTest {
    private static final Duration WAIT = Duration.ofSeconds(30);

    @Inject
    JobRunner runner;

    @Inject
    BucketRoller roller;

    @Test
    void should_export_every_metric_the_dashboard_and_the_alerts_read() throws Exception {
        exercise();
        String exposition = Metrics.exposition();
        Files.writeString(Path.of("target/monitoring-metrics.txt"), exposition);
        Map<String, Set<String>> exported = exported(exposition);

        Map<String, String> expressions = MonitoringSources.allExpressions();
        assertThat(expressions).isNotEmpty();
        expressions.forEach((where, expr) -> PromQl.check(expr).forEach((metric, labels) -> {
            if (MonitoringSources.FROM_KUBE_STATE_METRICS.contains(metric)) {
                return;
            }
            assertThat(exported)
                    .as("%s reads %s, which /q/metrics does not export", where, metric)
                    .containsKey(metric);
            Set<String> own = new LinkedHashSet<>(labels);
            own.removeAll(MonitoringSources.TARGET_LABELS);
            assertThat(exported.get(metric))
                    .as("%s matches on labels of %s", where, metric)
                    .containsAll(own);
        }));
    }

    private void exercise() {
        String forwarded = "10.9." + ThreadLocalRandom.current().nextInt(256) + "."
                + ThreadLocalRandom.current().nextInt(256);
        Map<String, Object> paste = new HashMap<>(Map.of("title", "metrics", "body", "hello", "private", false));
        String id = createdId(given().header("X-Forwarded-For", forwarded)
                .contentType(ContentType.JSON)
                .body(paste)
                .when()
                .post("/pastes"));
        given().header("X-Forwarded-For", forwarded)
                .when()
                .get("/pastes/" + id)
                .then()
                .statusCode(200);
        given().header("X-Forwarded-For", forwarded)
                .when()
                .get("/pastes/not-an-id")
                .then()
                .statusCode(400);
        given().header("X-Forwarded-For", forwarded).when().get("/ring").then().statusCode(200);
        // Writes until the small budget answers 429.
        int status = 0;
        for (int i = 0; i < 10 && status != 429; i++) {
            status = given().header("X-Forwarded-For", forwarded)
                    .contentType(ContentType.JSON)
                    .body(paste)
                    .when()
                    .post("/pastes")
                    .then()
                    .extract()
                    .statusCode();
        }
        assertThat(status).isEqualTo(429);
        // A tick of the roller that runs: for a series of its own (no other test reads it) at an instant no
        // other test claims.
        TimeSeries own = TimeSeries.global("metrics-" + UUID.randomUUID(), Granularity.DAY, Optional.empty());
        Instant later = FarTicks.next();
        assertThat(roller.tick(runner, List.of(own), later).await().atMost(WAIT).ran())
                .isTrue();
    }

    /** Sample names of a Prometheus text exposition, with the label names each carries. */
    static Map<String, Set<String>> exported(String exposition) {
        Map<String, Set<String>> names = new HashMap<>();
        for (String line : exposition.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.indexOf(' ');
            int end = brace >= 0 && brace < space ? brace : space;
            Set<String> labels = names.computeIfAbsent(line.substring(0, end), n -> new LinkedHashSet<>());
            if (end == brace) {
                String body =
                        line.substring(brace + 1, PromQl.closingBrace(line, brace, line)); // an exemplar may follow
                for (String pair : body.split(",(?=[a-zA-Z_][a-zA-Z0-9_]*=\")")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0) {
                        labels.add(pair.substring(0, eq).trim());
                    }
                }
            }
        }
        return names;
    }
}
