package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedInputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The images of this build, checked after packaging without a Docker engine. A JVM build writes
 * its image with Quarkus's Jib extension (target/images/&lt;name&gt;.tar, the `docker save` tarball
 * bin/jib-docker keeps): it is opened here, config and layers. The native image comes from
 * Dockerfile.native-micro, which cannot be built here; what can be known without building it is
 * checked.
 */
class ContainerImagesIT {
    private static final Path ROOT = Path.of(System.getProperty("cqlpatterns.root", "."));
    private static final Path NATIVE_DOCKERFILE = ROOT.resolve("src/main/docker/Dockerfile.native-micro");
    private static final Path FAST_JAR = ROOT.resolve("target/quarkus-app");
    private static final String SERVICE_PORT = "8080";

    private static String artifactType;
    private static Image jvmImage;

    @BeforeAll
    static void readArtifact() throws IOException {
        Properties artifact = new Properties();
        try (Reader in = Files.newBufferedReader(ROOT.resolve("target/quarkus-artifact.properties"))) {
            artifact.load(in);
        }
        artifactType = artifact.getProperty("type");
    }

    // ---- the JVM image (Jib) -------------------------------------------------------------------

    @Test
    void should_run_the_fast_jar_as_a_numeric_non_root_user_on_the_service_port() throws IOException {
        Image image = jvmImage();
        JsonNode config = image.config.path("config");

        // Kubernetes checks runAsNonRoot only against a numeric user.
        String user = config.path("User").asText();
        assertThat(user).as("image user").matches("\\d+");
        assertThat(Integer.parseInt(user)).as("image user").isPositive();

        assertThat(names(config.path("ExposedPorts"))).as("exposed ports").containsExactly(SERVICE_PORT + "/tcp");

        List<String> entrypoint = strings(config.path("Entrypoint"));
        Map<String, String> env = env(config.path("Env"));
        String workingDir = config.path("WorkingDir").asText();
        String jar;
        if (entrypoint.equals(List.of("/opt/jboss/container/java/run/run-java.sh"))) {
            // A Red Hat OpenJDK base: its script runs JAVA_APP_JAR.
            jar = env.get("JAVA_APP_JAR");
        } else {
            assertThat(entrypoint).as("entrypoint").hasSizeGreaterThanOrEqualTo(3);
            assertThat(entrypoint.subList(entrypoint.size() - 2, entrypoint.size()))
                    .as("entrypoint")
                    .containsExactly("-jar", "quarkus-run.jar");
            jar = "quarkus-run.jar";
            // The java it starts is in the image, on the image's PATH.
            assertThat(Arrays.stream(env.getOrDefault("PATH", "").split(":"))
                            .anyMatch(dir -> image.files.containsKey(dir + "/" + entrypoint.get(0))))
                    .as(entrypoint.get(0) + " on the image's PATH " + env.get("PATH"))
                    .isTrue();
        }
        assertThat(jar).as("the jar the entrypoint runs").isNotNull();
        assertThat(image.files).as("files of the image").containsKey(absolute(workingDir, jar));
    }

    @Test
    void should_carry_the_fast_jar_readable_by_its_user_with_the_code_apart_from_the_libraries() throws IOException {
        Image image = jvmImage();
        String appDir = image.config.path("config").path("WorkingDir").asText();
        int user = Integer.parseInt(image.config.path("config").path("User").asText());

        List<Path> fastJar;
        try (Stream<Path> files = Files.walk(FAST_JAR)) {
            fastJar = files.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().equals("quarkus-app-dependencies.txt"))
                    .toList();
        }
        for (String part : List.of("lib/boot", "lib/main", "app", "quarkus", "quarkus-run.jar")) {
            assertThat(fastJar)
                    .as("the fast-jar's " + part)
                    .anyMatch(f -> FAST_JAR.relativize(f).startsWith(part));
        }
        for (Path file : fastJar) {
            String inImage = absolute(appDir, FAST_JAR.relativize(file).toString());
            ImageFile found = image.files.get(inImage);
            assertThat(found).as(inImage + " in the image").isNotNull();
            assertThat(found.size).as(inImage + " size").isEqualTo(Files.size(file));
            assertThat(found.readableBy(user))
                    .as(inImage + " readable by user " + user)
                    .isTrue();
        }

        // A code change rebuilds only the small layers: the libraries are not in the code's layer.
        int app = image.layerOf(absolute(appDir, "app/"));
        int quarkus = image.layerOf(absolute(appDir, "quarkus/"));
        int libraries = image.layerOf(absolute(appDir, "lib/main/"));
        assertThat(libraries)
                .as("layer of lib/main")
                .isNotEqualTo(app)
                .isNotEqualTo(quarkus)
                .isLessThan(app);
    }

    // ---- the native image (Dockerfile) ---------------------------------------------------------

    @Test
    void should_find_everything_the_native_dockerfile_copies() throws IOException {
        assumeTrue(
                "native".equals(artifactType),
                "a native build (-Pnative) produces what Dockerfile.native-micro copies");
        List<String> sources = copySources(NATIVE_DOCKERFILE);
        assertThat(sources).as("COPY sources of Dockerfile.native-micro").isNotEmpty();
        for (String source : sources) {
            assertThat(matches(source))
                    .as("Dockerfile.native-micro copies " + source + ", which the build did not produce")
                    .isNotEmpty();
        }
    }

    @Test
    void should_run_the_native_dockerfile_as_a_numeric_non_root_user_on_the_service_port() throws IOException {
        List<String> lines = Files.readAllLines(NATIVE_DOCKERFILE);
        String user = last(lines, "USER");
        // Kubernetes checks runAsNonRoot only against a numeric user.
        assertThat(user).as("Dockerfile.native-micro USER").matches("\\d+");
        assertThat(Integer.parseInt(user)).as("Dockerfile.native-micro USER").isPositive();
        assertThat(last(lines, "EXPOSE")).isEqualTo(SERVICE_PORT);
        assertThat(String.join("\n", lines))
                .as("Dockerfile.native-micro documents its build command")
                .contains("docker build -f src/main/docker/Dockerfile.native-micro");
    }

    // ---- reading a `docker save` tarball -------------------------------------------------------

    private record ImageFile(long size, int mode, long uid, long gid, int layer) {
        boolean readableBy(long user) {
            return (mode & 0004) != 0 || (gid == 0 && (mode & 0040) != 0) || (uid == user && (mode & 0400) != 0);
        }
    }

    /** The image's config and every path in its layers (the top layer's entry wins). */
    private record Image(JsonNode config, Map<String, ImageFile> files) {
        int layerOf(String directoryPrefix) {
            return files.entrySet().stream()
                    .filter(e -> e.getKey().startsWith(directoryPrefix))
                    .map(e -> e.getValue().layer)
                    .distinct()
                    .reduce((a, b) -> {
                        throw new AssertionError(directoryPrefix + " is spread over layers " + a + " and " + b);
                    })
                    .orElseThrow(() -> new AssertionError("nothing under " + directoryPrefix + " in the image"));
        }
    }

    private static Image jvmImage() throws IOException {
        assumeTrue("jar-container".equals(artifactType) || "jar".equals(artifactType), "a JVM build");
        assumeTrue(
                Boolean.parseBoolean(System.getProperty("cqlpatterns.image.build", "true"))
                        && !Boolean.parseBoolean(System.getProperty("cqlpatterns.image.push", "false")),
                "the image is written to a file (quarkus.container-image.build=true, no push)");
        assertThat(artifactType).as("artifact type with an image built").isEqualTo("jar-container");
        if (jvmImage == null) {
            jvmImage = read(Path.of(System.getProperty(
                    "cqlpatterns.image.tar",
                    ROOT.resolve("target/images/cql-patterns.tar").toString())));
        }
        return jvmImage;
    }

    private static Image read(Path tarball) throws IOException {
        assertThat(tarball).as("the image Jib wrote").isRegularFile();

        Map<String, byte[]> entries = new HashMap<>();
        try (TarArchiveInputStream tar =
                new TarArchiveInputStream(new BufferedInputStream(Files.newInputStream(tarball)))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                if (e.isFile()) {
                    entries.put(e.getName(), tar.readAllBytes());
                }
            }
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode manifest = json.readTree(entries.get("manifest.json"));
        assertThat(manifest).as("manifest.json entries").hasSize(1);
        JsonNode config =
                json.readTree(entries.get(manifest.get(0).path("Config").asText()));
        List<String> layers = strings(manifest.get(0).path("Layers"));
        assertThat(layers)
                .as("layers")
                .hasSize(config.path("rootfs").path("diff_ids").size());

        Map<String, ImageFile> files = new LinkedHashMap<>();
        for (int i = 0; i < layers.size(); i++) {
            byte[] layer = entries.get(layers.get(i));
            assertThat(layer).as("layer " + layers.get(i)).isNotNull();
            try (TarArchiveInputStream tar = new TarArchiveInputStream(uncompressed(layer))) {
                for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                    String name = "/" + e.getName().replaceFirst("^\\./", "");
                    files.put(name, new ImageFile(e.getSize(), e.getMode(), e.getLongUserId(), e.getLongGroupId(), i));
                }
            }
        }
        return new Image(config, files);
    }

    private static InputStream uncompressed(byte[] layer) throws IOException {
        InputStream in = new ByteArrayInputStream(layer);
        boolean gzip = layer.length > 1 && (layer[0] & 0xff) == 0x1f && (layer[1] & 0xff) == 0x8b;
        return gzip ? new GZIPInputStream(in, 1 << 16) : in;
    }

    private static String absolute(String directory, String path) {
        return path.startsWith("/") ? path : directory.replaceFirst("/$", "") + "/" + path;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    private static List<String> names(JsonNode object) {
        List<String> names = new ArrayList<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static Map<String, String> env(JsonNode array) {
        Map<String, String> env = new HashMap<>();
        for (String entry : strings(array)) {
            int eq = entry.indexOf('=');
            env.put(entry.substring(0, eq), entry.substring(eq + 1));
        }
        return env;
    }

    // ---- reading a Dockerfile ------------------------------------------------------------------

    private static String last(List<String> lines, String instruction) {
        return lines.stream()
                .filter(l -> l.startsWith(instruction + " "))
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
                    .filter(a -> !a.startsWith("--"))
                    .toList();
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
