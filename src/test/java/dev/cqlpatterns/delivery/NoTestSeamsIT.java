package dev.cqlpatterns.delivery;

import static dev.cqlpatterns.testsupport.PackagedService.ROOT;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The packaged service carries no test seam: fault injection and other test-only beans live in the
 * test sources (testsupport/, CDI alternatives), and none of their classes reaches the jars that
 * production runs.
 */
class NoTestSeamsIT {
    /** Classes of the tests' support package, and anything named for injecting faults. */
    private static final Pattern SEAM = Pattern.compile("dev/cqlpatterns/(testsupport/.*|.*Faults?(\\$.*)?\\.class)");

    @Test
    void should_package_no_test_seam() throws IOException {
        Path app = ROOT.resolve("target/quarkus-app");
        List<Path> jars;
        try (Stream<Path> files = Files.walk(app)) {
            jars = files.filter(p -> p.toString().endsWith(".jar")).toList();
        }
        assertThat(jars).as("jars of %s", app).isNotEmpty();
        assertThat(seams(jars)).isEmpty();
    }

    @Test
    void should_find_a_seam_where_there_is_one(@TempDir Path dir) throws IOException {
        Path jar = dir.resolve("with-seam.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (String name : List.of(
                    "dev/cqlpatterns/pastebin/ReadPaste.class",
                    "dev/cqlpatterns/testsupport/ConditionalWriteFaults.class")) {
                out.putNextEntry(new JarEntry(name));
                out.write(new byte[] {0});
                out.closeEntry();
            }
        }
        assertThat(seams(List.of(jar)))
                .containsExactly("with-seam.jar!dev/cqlpatterns/testsupport/ConditionalWriteFaults.class");
    }

    private static List<String> seams(List<Path> jars) throws IOException {
        List<String> found = new ArrayList<>();
        for (Path path : jars) {
            try (JarFile jar = new JarFile(path.toFile())) {
                for (JarEntry entry : Collections.list(jar.entries())) {
                    if (SEAM.matcher(entry.getName()).matches()) {
                        found.add(path.getFileName() + "!" + entry.getName());
                    }
                }
            }
        }
        return found;
    }
}
