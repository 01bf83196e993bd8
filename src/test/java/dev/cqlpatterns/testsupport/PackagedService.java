package dev.cqlpatterns.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The packaged jar run as production runs it: a separate process configured by its environment,
 * either one command ({@code migrate}, {@code job ...}) or the HTTP service on a port.
 */
public final class PackagedService {
    public static final Path ROOT = CassandraTestResource.root();
    public static final Path JAR = ROOT.resolve("target/quarkus-app/quarkus-run.jar");
    /**
     * The JVM flags k8s/base gives every function and command (its JAVA_TOOL_OPTIONS; the always-on
     * Deployment sets its own), read from the one place that sets them.
     */
    public static final String FUNCTION_FLAGS = functionFlags();

    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final Map<String, String> env;

    /**
     * {@code env}: the service's settings (contact points, keyspace, ...), each one that TestOverrides
     * lists; the test JWT key is added.
     */
    public PackagedService(Map<String, String> env) {
        TestOverrides.requireListed(env.keySet());
        Map<String, String> all = new HashMap<>(env);
        all.put("JWT_PUBLIC_KEY_LOCATION", Tokens.publicKeyFile().toString());
        all.put("JWT_ISSUER", Tokens.ISSUER);
        this.env = Map.copyOf(all);
    }

    public record Command(int exitCode, String output) {}

    /** Runs the jar's command line {@code args} to its end (at most two minutes). */
    public Command command(String... args) throws IOException, InterruptedException {
        return command(JAR, args);
    }

    /**
     * Runs {@code jar}'s command line {@code args} to its end (at most two minutes), as a Job runs
     * it: with the JVM flags k8s/base gives it and, for this build's jar, nothing else (a command sets
     * its own port, ticks and shutdown); another release's also gets what bin/artifact gave its
     * commands then, so it takes no port.
     */
    public Command command(Path jar, String... args) throws IOException, InterruptedException {
        List<String> line = new ArrayList<>(List.of(java()));
        if (!jar.equals(JAR)) {
            line.addAll(List.of(
                    "-Dquarkus.http.port=0", "-Dquarkus.scheduler.enabled=false", "-Dquarkus.shutdown.delay=0s"));
        }
        line.addAll(List.of("-jar", jar.toString()));
        line.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(line).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("JAVA_TOOL_OPTIONS", FUNCTION_FLAGS);
        Process process = pb.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError(String.join(" ", args) + " did not exit; output:\n" + output);
        }
        return new Command(process.exitValue(), output);
    }

    /**
     * Starts {@code jar} serving HTTP on {@code port}, its output in {@code log}, with {@code overrides}:
     * as a function runs, unless the overrides give JAVA_TOOL_OPTIONS.
     */
    public Process serve(Path jar, int port, Path log, Map<String, String> overrides) throws IOException {
        TestOverrides.requireListed(overrides.keySet());
        ProcessBuilder pb = new ProcessBuilder(java(), "-jar", jar.toString())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        pb.environment().putAll(env);
        pb.environment().put("JAVA_TOOL_OPTIONS", FUNCTION_FLAGS);
        pb.environment().put("PORT", Integer.toString(port));
        pb.environment().putAll(overrides);
        return pb.start();
    }

    /**
     * Stops the service as Kubernetes does, with SIGTERM: it reports not ready, drains for its
     * shutdown delay (5 s) and exits, while the test goes on; one still running 30 s later is killed.
     */
    public static void stop(Process service) {
        service.destroy();
        service.onExit().orTimeout(30, TimeUnit.SECONDS).exceptionally(late -> {
            service.destroyForcibly();
            return null;
        });
    }

    /** The status of the first non-503 answer to {@code path}, polling from {@code began}; fails after {@code within}. */
    public static int firstAnswer(int port, String path, long began, Duration within) throws InterruptedException {
        while (System.nanoTime() - began < within.toNanos()) {
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
        throw new AssertionError(path + " did not answer within " + within + " of " + began);
    }

    public static HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return HTTP.send(
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                        .timeout(Duration.ofSeconds(5))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static String functionFlags() {
        try {
            Matcher flags = Pattern.compile("JAVA_TOOL_OPTIONS=(.*)")
                    .matcher(Files.readString(ROOT.resolve("k8s/base/kustomization.yaml")));
            if (!flags.find()) {
                throw new IllegalStateException("no JAVA_TOOL_OPTIONS in k8s/base/kustomization.yaml");
            }
            return flags.group(1).strip();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }
}
