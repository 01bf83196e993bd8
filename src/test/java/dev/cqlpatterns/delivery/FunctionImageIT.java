package dev.cqlpatterns.delivery;

import static dev.cqlpatterns.testsupport.PackagedService.ROOT;
import static dev.cqlpatterns.testsupport.PackagedService.firstAnswer;
import static dev.cqlpatterns.testsupport.PackagedService.freePort;
import static dev.cqlpatterns.testsupport.PackagedService.stop;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cqlpatterns.testsupport.CassandraTestResource;
import dev.cqlpatterns.testsupport.PackagedService;
import dev.cqlpatterns.testsupport.Tokens;
import java.nio.charset.StandardCharsets;
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
 * The shipped image of a function group (bin/function-image): JDK 25 with an AOT cache trained on
 * the image's own files. The tarball is unpacked as a container runtime would (bin/image-rootfs)
 * and started with its own entrypoint under the function flags of k8s/base; the JVM must say it
 * uses the cache (-Xlog:aot), which it does only when the class path is the one the cache was
 * trained on, and the first Cassandra-backed request must answer 200; it serves no contract. Training
 * and starting run under chroot (bin/in-image), which needs root: elsewhere this test is skipped.
 */
class FunctionImageIT {
    private static final String GROUP = "pastebin";
    private static final Path IMAGE = ROOT.resolve("target/images/cql-patterns-" + GROUP + ".tar");
    private static final Path CHECK = ROOT.resolve("target/function-image-check");
    private static Map<String, String> cassandra;

    @BeforeAll
    static void buildTheImage() throws Exception {
        assumeTrue("root".equals(System.getProperty("user.name")), "chroot (bin/in-image) needs root");
        Map<String, String> config = new CassandraTestResource().start();
        cassandra = Map.of(
                "CQL_CONTACT_POINTS", config.get("quarkus.cassandra.contact-points"),
                "CQL_LOCAL_DATACENTER", config.get("quarkus.cassandra.local-datacenter"),
                "CQL_KEYSPACE", "cql_patterns_function_image");
        Path log = ROOT.resolve("target/function-image-" + GROUP + ".log");
        ProcessBuilder build = new ProcessBuilder(
                        ROOT.resolve("bin/function-image").toString(), GROUP)
                .directory(ROOT.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        build.environment().putAll(cassandra);
        Process process = build.start();
        assertThat(process.waitFor(15, TimeUnit.MINUTES))
                .as("bin/function-image finished")
                .isTrue();
        assertThat(process.exitValue())
                .as("bin/function-image %s; its output:%n%s", GROUP, Files.readString(log))
                .isZero();
    }

    @Test
    void should_start_the_shipped_image_with_its_aot_cache_accepted_and_answer_from_cassandra() throws Exception {
        run(ROOT.resolve("bin/image-rootfs").toString(), IMAGE.toString(), CHECK.toString());
        Path rootfs = CHECK.resolve("rootfs");
        JsonNode entrypoint = new ObjectMapper()
                .readTree(CHECK.resolve("config.json").toFile())
                .path("config")
                .path("Entrypoint");
        List<String> command =
                new ArrayList<>(List.of(ROOT.resolve("bin/in-image").toString()));
        entrypoint.forEach(arg -> command.add(arg.asText()));
        assertThat(command.remove(1)).as("the entrypoint's program").isEqualTo("java");
        assertThat(command).as("the entrypoint names the cache").contains("-XX:AOTCache=app.aot");
        assertThat(rootfs.resolve("home/jboss/app.aot")).as("the cache's layer").isNotEmptyFile();

        Files.copy(Tokens.publicKeyFile(), rootfs.resolve("tmp/jwt-public-key.pem"));
        int port = freePort();
        Path log = CHECK.resolve("start.log");
        ProcessBuilder start =
                new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile());
        start.environment().putAll(cassandra);
        start.environment()
                .putAll(Map.of(
                        "IMAGE_ROOTFS",
                        rootfs.toString(),
                        "PORT",
                        Integer.toString(port),
                        "IMAGE_JAVA_TOOL_OPTIONS",
                        PackagedService.FUNCTION_FLAGS + " -Xlog:aot",
                        "JWT_PUBLIC_KEY_LOCATION",
                        "/tmp/jwt-public-key.pem",
                        "JWT_ISSUER",
                        Tokens.ISSUER,
                        "CURSOR_SECRET",
                        "function-image-test-cursor-secret",
                        "CQL_MIGRATE_AT_STARTUP",
                        "false",
                        "SCHEDULER_IN_PROCESS",
                        "false"));
        long began = System.nanoTime();
        Process service = start.start();
        try {
            int status = firstAnswer(port, "/pastes", began, Duration.ofSeconds(60));
            long firstMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - began);
            assertThat(status).as("GET /pastes from the image (log %s)", log).isEqualTo(200);
            String output = Files.readString(log);
            assertThat(output)
                    .as("the JVM's -Xlog:aot in %s", log)
                    .contains("Using AOT-linked classes: true")
                    .doesNotContain("[error][aot]")
                    .doesNotContain("mismatch")
                    .doesNotContain("not the one used while building");
            // A function holds no contract (bin/function-build): /q/* is never routed to it, and
            // preparing the document would cost every start; nor any setting of the extension left out.
            assertThat(PackagedService.get(port, "/q/openapi").statusCode())
                    .as("GET /q/openapi from a function")
                    .isEqualTo(404);
            assertThat(output).as("the function's log %s", log).doesNotContain("Unrecognized configuration key");
            System.out.printf(
                    "function image %s: first GET /pastes 200 after %d ms, with its AOT cache%n", GROUP, firstMillis);
        } finally {
            stop(service);
        }
    }

    private static void run(String... command) throws Exception {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(5, TimeUnit.MINUTES)).isTrue();
        assertThat(process.exitValue())
                .as("%s; output:%n%s", String.join(" ", command), output)
                .isZero();
    }
}
