package dev.cqlpatterns.delivery;

import static dev.cqlpatterns.testsupport.PackagedService.JAR;
import static dev.cqlpatterns.testsupport.PackagedService.ROOT;
import static dev.cqlpatterns.testsupport.PackagedService.firstAnswer;
import static dev.cqlpatterns.testsupport.PackagedService.freePort;
import static dev.cqlpatterns.testsupport.PackagedService.get;
import static dev.cqlpatterns.testsupport.PackagedService.stop;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.testsupport.CassandraTestResource;
import dev.cqlpatterns.testsupport.PackagedService;
import dev.cqlpatterns.testsupport.PackagedService.Command;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged artifact as a function starts it: the schema applied beforehand by its own
 * {@code migrate} command, then started twice with migrations off, each start answering
 * Cassandra-backed routes within seconds and never hanging (a scheduled tick once blocked the event
 * loop the session was being built on, and such starts never answered). Also the {@code job}
 * command a CronJob runs. Runs the jar as a process, as production does.
 */
class ColdStartIT {
    /** The artifact whose starts are measured: this build's, or another one's to compare with. */
    private static final Path SERVED = Path.of(System.getProperty("cold-start.jar", JAR.toString()));

    private static final String KEYSPACE = "cql_patterns_cold_start";
    private static final Duration FIRST_ANSWER_WITHIN = Duration.ofSeconds(30);
    private static PackagedService jar;

    @BeforeAll
    static void applySchema() throws Exception {
        Map<String, String> config = new CassandraTestResource().start();
        jar = new PackagedService(Map.of(
                "CQL_CONTACT_POINTS",
                config.get("quarkus.cassandra.contact-points"),
                "CQL_LOCAL_DATACENTER",
                config.get("quarkus.cassandra.local-datacenter"),
                "CQL_KEYSPACE",
                KEYSPACE,
                "CURSOR_SECRET",
                "cold-start-test-cursor-secret"));
        Command migrate = jar.command("migrate");
        assertThat(migrate.exitCode())
                .as("migrate exit code; output:%n%s", migrate.output())
                .isZero();
    }

    @Test
    void should_answer_cassandra_backed_routes_on_every_start_with_migrations_off() throws Exception {
        List<Long> millis = new ArrayList<>();
        for (int start = 1; start <= 2; start++) {
            int port = freePort();
            Path log = ROOT.resolve("target/cold-start-" + start + ".log");
            long began = System.nanoTime();
            Process service = jar.serve(SERVED, port, log, Map.of("CQL_MIGRATE_AT_STARTUP", "false"));
            try {
                int ring = firstAnswer(port, "/ring", began, FIRST_ANSWER_WITHIN);
                assertThat(ring)
                        .as("GET /ring on start %d (log %s)", start, log)
                        .isEqualTo(200);
                millis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
                // a route that reads a table: the session and the schema are both there
                assertThat(get(port, "/pastes").statusCode())
                        .as("GET /pastes on start %d", start)
                        .isEqualTo(200);
                // a table's metadata: the driver loads only the keyspace the deployment names
                assertThat(get(port, "/ring/leases/token?key=name=cold-start").statusCode())
                        .as("GET /ring/leases/token on start %d", start)
                        .isEqualTo(200);
                assertThat(Files.readString(log))
                        .as("start %d's log", start)
                        .doesNotContain("BlockedThreadChecker")
                        .doesNotContain("Applying cql/");
            } finally {
                stop(service);
            }
        }
        System.out.printf("cold start, process start to first GET /ring 200 (ms): %s%n", millis);
    }

    @Test
    void should_answer_503_with_retry_after_while_cassandra_cannot_be_reached() throws Exception {
        int port = freePort();
        int nowhere = freePort();
        long began = System.nanoTime();
        Process service = jar.serve(
                SERVED,
                port,
                ROOT.resolve("target/cold-start-unreachable.log"),
                Map.of("CQL_CONTACT_POINTS", "127.0.0.1:" + nowhere, "CQL_SESSION_WAIT", "PT1S"));
        try {
            assertThat(firstAnswer(port, "/q/health/live", began, FIRST_ANSWER_WITHIN))
                    .isEqualTo(200);
            HttpResponse<String> pastes = get(port, "/pastes");
            assertThat(pastes.statusCode()).isEqualTo(503);
            assertThat(pastes.headers().firstValue("Content-Type")).hasValue(Problem.MEDIA_TYPE);
            assertThat(pastes.headers().firstValue("Retry-After")).isPresent();
            assertThat(get(port, "/q/health/ready").statusCode()).isEqualTo(503);
        } finally {
            stop(service);
        }
    }

    @Test
    void should_run_one_tick_of_a_job_and_exit() throws Exception {
        Command tick = jar.command("job", "bucket-roller");
        assertThat(tick.exitCode())
                .as("job exit code; output:%n%s", tick.output())
                .isZero();
        assertThat(tick.output())
                .containsPattern("bucket-roller: (ran|another replica had this tick)")
                // a command takes no port and stops without the serving shape's drain delay (5 s)
                .doesNotContain("Listening on: http")
                .containsPattern("stopped in [0-4]\\.[0-9]+s");

        Command unknown = jar.command("job", "no-such-job");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.output()).contains("No job no-such-job").contains("bucket-roller");
    }

    @Test
    void should_apply_nothing_when_the_schema_is_up_to_date() throws Exception {
        Command again = jar.command("migrate");
        assertThat(again.exitCode()).isZero();
        assertThat(again.output()).contains("applied nothing new").doesNotContain("Applying cql/");
    }
}
