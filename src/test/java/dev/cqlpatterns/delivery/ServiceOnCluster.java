package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cqlpatterns.testsupport.PackagedService;
import dev.cqlpatterns.testsupport.PackagedService.Command;
import dev.cqlpatterns.testsupport.TestCluster;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The packaged service on a test cluster, as production runs it there: RF 3 (one replica per node
 * of a 3-node cluster), LOCAL_QUORUM, the keyspace migrated by the {@code migrate} command first,
 * no in-process scheduler and no rate limits (the load would meet them). Its log and every exception
 * it throws, with where, go to target/{@code name}.log and target/{@code name}-exceptions.log: a
 * connection the driver closes ("Unexpected error on channel") fails every request in flight on it,
 * and the driver does not log why; the exceptions log does.
 */
final class ServiceOnCluster {
    private static final ObjectMapper JSON = new ObjectMapper();
    final int port;
    private final Process process;
    private final Path log;
    private final Path exceptions;

    private ServiceOnCluster(int port, Process process, Path log, Path exceptions) {
        this.port = port;
        this.process = process;
        this.log = log;
        this.exceptions = exceptions;
    }

    static ServiceOnCluster start(TestCluster cluster, int nodes, String keyspace, String name) throws Exception {
        PackagedService jar = new PackagedService(Map.of(
                "CQL_CONTACT_POINTS",
                cluster.contactPoints(),
                "CQL_LOCAL_DATACENTER",
                "datacenter1",
                "CQL_KEYSPACE",
                keyspace,
                "CQL_REPLICATION_FACTOR",
                Integer.toString(nodes),
                "CQL_CONSISTENCY",
                "LOCAL_QUORUM",
                "CURSOR_SECRET",
                name + "-test-cursor-secret",
                "RATE_LIMITS_ENABLED",
                "false",
                "SCHEDULER_IN_PROCESS",
                "false"));
        Command migrate = jar.command("migrate");
        assertThat(migrate.exitCode())
                .as("migrate; output:%n%s", migrate.output())
                .isZero();
        int port = PackagedService.freePort();
        long began = System.nanoTime();
        Path log = PackagedService.ROOT.resolve("target/" + name + ".log");
        Path exceptions = PackagedService.ROOT.resolve("target/" + name + "-exceptions.log");
        Process process = jar.serve(
                PackagedService.JAR,
                port,
                log,
                Map.of(
                        "JAVA_TOOL_OPTIONS",
                        "-Xlog:exceptions=info:file=" + exceptions
                                // Each statement that failed, with its CQL and error (not its
                                // values): what a failed request met, for warningsBetween.
                                + " -Ddatastax-java-driver.advanced.request-tracker.classes.0=RequestLogger"
                                + " -Ddatastax-java-driver.advanced.request-tracker.logs.success.enabled=false"
                                + " -Ddatastax-java-driver.advanced.request-tracker.logs.slow.enabled=false"
                                + " -Ddatastax-java-driver.advanced.request-tracker.logs.show-values=false"
                                + " -Ddatastax-java-driver.advanced.request-tracker.logs.error.enabled=true"
                                + " -Ddatastax-java-driver.advanced.request-tracker.logs.show-stack-traces=false"));
        assertThat(PackagedService.firstAnswer(port, "/q/health/ready", began, Duration.ofSeconds(60)))
                .isEqualTo(200);
        return new ServiceOnCluster(port, process, log, exceptions);
    }

    /** The service's log lines of a driver connection closed under its requests, so far. */
    List<String> lostChannels() throws IOException {
        return lines(log, "Unexpected error on channel");
    }

    /**
     * Answers from Cassandra the driver could not decode, so far: each closed its connection. The
     * log shows one exception once per frame it passes, with the same object id; one line per id.
     */
    List<String> undecodedFrames() throws IOException {
        return lines(exceptions, "Exception <a 'io/netty/handler/codec/DecoderException'{").stream()
                .map(line -> line.substring(line.indexOf("{")))
                .distinct()
                .toList();
    }

    /**
     * The service's warnings and errors logged from {@code from} to {@code to} (a little either
     * side: the clocks are one, the log line comes after the event), each as time, logger and
     * message: what a failed request met, kept in the assertion that CI shows.
     */
    List<String> warningsBetween(Instant from, Instant to) throws IOException {
        Instant after = from.minusMillis(100);
        Instant before = to.plusMillis(100);
        List<String> found = new ArrayList<>();
        for (String line : lines(log, "\"level\":\"")) {
            JsonNode entry;
            try {
                entry = JSON.readTree(line);
            } catch (IOException notJson) {
                continue;
            }
            String level = entry.path("level").asText();
            if (!level.equals("WARN") && !level.equals("ERROR")) {
                continue;
            }
            Instant at = Instant.parse(entry.path("timestamp").asText());
            if (at.isBefore(after) || at.isAfter(before)) {
                continue;
            }
            String logger = entry.path("loggerName").asText();
            String message = entry.path("message").asText();
            found.add(at + " " + logger.substring(logger.lastIndexOf('.') + 1) + ": "
                    + (message.length() > 500 ? message.substring(0, 500) + "..." : message));
        }
        return found;
    }

    /** {@link #undecodedFrames()} as problems of a fault run: each failed the requests on its connection. */
    List<String> undecodedAnswers() throws IOException {
        return undecodedFrames().stream()
                .map(frame -> "an answer the driver could not decode: " + frame)
                .toList();
    }

    private static List<String> lines(Path file, String containing) throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        try (Stream<String> lines = Files.lines(file, StandardCharsets.ISO_8859_1)) {
            return lines.filter(line -> line.contains(containing)).toList();
        }
    }

    void stop() throws InterruptedException {
        PackagedService.stop(process);
    }
}
