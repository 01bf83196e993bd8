package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The Dockerfiles cannot be built here (no Docker), so what can be known without building them is
 * checked after packaging: each copies what this build really produced, and runs as a non-root user.
 */
class ContainerImagesIT {
    private static final Path ROOT = Path.of(System.getProperty("cqlpatterns.root", "."));
    private static final Path DOCKER = ROOT.resolve("src/main/docker");

    @Test
    void should_find_everything_the_image_of_this_build_copies() throws IOException {
        Properties artifact = new Properties();
        try (Reader in = Files.newBufferedReader(ROOT.resolve("target/quarkus-artifact.properties"))) {
            artifact.load(in);
        }
        String dockerfile = "native".equals(artifact.getProperty("type")) ? "Dockerfile.native-micro" : "Dockerfile.jvm";
        List<String> sources = copySources(DOCKER.resolve(dockerfile));
        assertThat(sources).as("COPY sources of " + dockerfile).isNotEmpty();
        for (String source : sources) {
            assertThat(matches(source)).as(dockerfile + " copies " + source + ", which the build did not produce").isNotEmpty();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"Dockerfile.jvm", "Dockerfile.native-micro"})
    void should_run_as_a_numeric_non_root_user_on_the_service_port(String name) throws IOException {
        List<String> lines = Files.readAllLines(DOCKER.resolve(name));
        String user = last(lines, "USER");
        // Kubernetes checks runAsNonRoot only against a numeric user.
        assertThat(user).as(name + " USER").matches("\\d+");
        assertThat(Integer.parseInt(user)).as(name + " USER").isPositive();
        assertThat(last(lines, "EXPOSE")).isEqualTo("8080");
        assertThat(String.join("\n", lines)).as(name + " documents its build command")
                .contains("docker build -f src/main/docker/" + name);
    }

    private static String last(List<String> lines, String instruction) {
        return lines.stream().filter(l -> l.startsWith(instruction + " "))
                .reduce((first, second) -> second)
                .map(l -> l.substring(instruction.length()).trim())
                .orElseThrow(() -> new AssertionError("no " + instruction + " instruction"));
    }

    /** The source paths of every COPY (flags and the destination left out). */
    private static List<String> copySources(Path dockerfile) throws IOException {
        List<String> sources = new ArrayList<>();
        for (String line : Files.readAllLines(dockerfile)) {
            if (!line.startsWith("COPY ")) {
                continue;
            }
            List<String> args = Arrays.stream(line.substring(5).trim().split("\\s+"))
                    .filter(a -> !a.startsWith("--")).toList();
            sources.addAll(args.subList(0, args.size() - 1));
        }
        return sources;
    }

    /** Paths under the project that a COPY source (a path whose last part may be a glob) names. */
    private static List<Path> matches(String source) throws IOException {
        Path path = ROOT.resolve(source);
        String last = path.getFileName().toString();
        if (!last.contains("*")) {
            return Files.exists(path) ? List.of(path) : List.of();
        }
        List<Path> found = new ArrayList<>();
        if (Files.isDirectory(path.getParent())) {
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(path.getParent(), last)) {
                stream.forEach(found::add);
            }
        }
        return found;
    }
}
