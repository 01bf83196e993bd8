package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.CassandraTestResource;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The packaged artifact as a function starts it: the schema applied beforehand by its own
 * {@code migrate} command, then started again and again with migrations off, each start answering
 * Cassandra-backed routes within seconds and never hanging (a scheduled tick once blocked the event
 * loop the session was being built on, and such starts never answered). Also the {@code job}
 * command a CronJob runs. Runs the jar as a process, as production does.
 */
class ColdStartIT {
    private static final Path ROOT = Path.of(System.getProperty("cqlpatterns.root", "."));
    private static final Path JAR = ROOT.resolve("target/quarkus-app/quarkus-run.jar");
    /** The artifact whose starts are measured: this build's, or another one's to compare with. */
    private static final Path SERVED = Path.of(System.getProperty("cold-start.jar", JAR.toString()));
    private static final String KEYSPACE = "cql_patterns_cold_start";
    private static final Duration FIRST_ANSWER_WITHIN = Duration.ofSeconds(30);
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static Map<String, String> env;

    @BeforeAll
    static void applySchema() throws Exception {
        Map<String, String> config = new CassandraTestResource().start();
        env = new HashMap<>();
        env.put("CQL_CONTACT_POINTS", config.get("quarkus.cassandra.contact-points"));
        env.put("CQL_LOCAL_DATACENTER", config.get("quarkus.cassandra.local-datacenter"));
        env.put("JWT_PUBLIC_KEY_LOCATION", config.get("mp.jwt.verify.publickey.location"));
        env.put("JWT_ISSUER", config.get("mp.jwt.verify.issuer"));
        env.put("CQL_KEYSPACE", KEYSPACE);
        env.put("CURSOR_SECRET", "cold-start-test-cursor-secret");
        Command migrate = command("migrate");
        assertThat(migrate.exitCode()).as("migrate exit code; output:%n%s", migrate.output()).isZero();
    }

    @Test
    void should_answer_cassandra_backed_routes_on_every_start_with_migrations_off() throws Exception {
        List<Long> millis = new ArrayList<>();
        for (int start = 1; start <= 3; start++) {
            int port = freePort();
            Path log = ROOT.resolve("target/cold-start-" + start + ".log");
            long began = System.nanoTime();
            Process service = serve(port, log, Map.of("CQL_MIGRATE_AT_STARTUP", "false"));
            try {
                int ring = firstAnswer(port, "/ring", began);
                assertThat(ring).as("GET /ring on start %d (log %s)", start, log).isEqualTo(200);
                millis.add(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began));
                // a route that reads a table: the session and the schema are both there
                assertThat(get(port, "/pastes").statusCode()).as("GET /pastes on start %d", start).isEqualTo(200);
                assertThat(Files.readString(log)).as("start %d's log", start)
                        .doesNotContain("BlockedThreadChecker").doesNotContain("Applying cql/");
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
        Process service = serve(port, ROOT.resolve("target/cold-start-unreachable.log"),
                Map.of("CQL_CONTACT_POINTS", "127.0.0.1:" + nowhere, "CQL_SESSION_WAIT", "PT1S"));
        try {
            assertThat(firstAnswer(port, "/q/health/live", began)).isEqualTo(200);
            HttpResponse<String> pastes = get(port, "/pastes");
            assertThat(pastes.statusCode()).isEqualTo(503);
            assertThat(pastes.headers().firstValue("Content-Type")).hasValue("application/problem+json");
            assertThat(pastes.headers().firstValue("Retry-After")).isPresent();
            assertThat(get(port, "/q/health/ready").statusCode()).isEqualTo(503);
        } finally {
            stop(service);
        }
    }

    @Test
    void should_run_one_tick_of_a_job_and_exit() throws Exception {
        Command tick = command("job", "paste-expiry-sweeper");
        assertThat(tick.exitCode()).as("job exit code; output:%n%s", tick.output()).isZero();
        assertThat(tick.output()).containsPattern("paste-expiry-sweeper: (ran|another replica had this tick)");

        Command unknown = command("job", "no-such-job");
        assertThat(unknown.exitCode()).isEqualTo(2);
        assertThat(unknown.output()).contains("No job no-such-job").contains("bucket-roller");
    }

    @Test
    void should_apply_nothing_when_the_schema_is_up_to_date() throws Exception {
        Command again = command("migrate");
        assertThat(again.exitCode()).isZero();
        assertThat(again.output()).contains("applied nothing new").doesNotContain("Applying cql/");
    }

    /** Starts the served artifact on {@code port} with the test's settings and {@code overrides}. */
    private static Process serve(int port, Path log, Map<String, String> overrides) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(java(), "-jar", SERVED.toString())
                .redirectErrorStream(true).redirectOutput(log.toFile());
        pb.environment().putAll(env);
        pb.environment().put("PORT", Integer.toString(port));
        pb.environment().putAll(overrides);
        return pb.start();
    }

    private static void stop(Process service) throws InterruptedException {
        service.destroy();
        if (!service.waitFor(30, TimeUnit.SECONDS)) {
            service.destroyForcibly();
        }
    }

    private record Command(int exitCode, String output) {
    }

    private static Command command(String... args) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(java(), "-Dquarkus.http.port=0", "-jar", JAR.toString()));
        line.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(line).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("SCHEDULER_IN_PROCESS", "false");
        Process process = pb.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", args) + " did not exit; output:\n" + output);
        }
        return new Command(process.exitValue(), output);
    }

    /** The status of the first answer to {@code path}, polling from process start; fails after the limit. */
    private static int firstAnswer(int port, String path, long began) throws InterruptedException {
        while (System.nanoTime() - began < FIRST_ANSWER_WITHIN.toNanos()) {
            try {
                int status = get(port, path).statusCode();
                if (status != 503) {
                    return status;
                }
            } catch (IOException notListeningYet) {
                // the port opens a little after the process starts
            }
            Thread.sleep(20);
        }
        throw new AssertionError(path + " did not answer within " + FIRST_ANSWER_WITHIN + " of the process start");
    }

    private static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HTTP.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
