package dev.cqlpatterns.testsupport;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The release before the code being built: the newest row of RELEASES.md, packaged from its commit
 * as its own build packages it (its pom, its cql/, its mvnw settings), into
 * {@code target/previous-release/<commit>}. The commit comes from the file, not from a tag, since a
 * clone may carry no tags; it must be in the clone's history.
 */
public final class PreviousRelease {
    /** | version | commit | migrations | data migrations | notes |: the data migrations as job names, or "none". */
    private static final Pattern ROW =
            Pattern.compile("^\\| *([0-9][^ |]*) *\\| *([0-9a-f]{40}) *\\|[^|]*\\| *([^|]*?) *\\|.*");
    /**
     * The packaging steps only: tests (not even compiled, nor their generated client), lints, images
     * and the SBOM are the release's own CI's business.
     */
    private static final List<String> PACKAGE_ONLY = List.of(
            "-Dmaven.test.skip=true",
            "-Dcodegen.skip=true",
            "-Dlint.skip=true",
            "-Dnative-sources.skip=true",
            "-Dsbom.skip=true",
            "-Djvm-base-image.skip=true",
            "-Dcassandra-log-gate.skip=true",
            "-Dquarkus.container-image.build=false");

    /**
     * A release, and the data migrations (job names) its upgrade runs to their end before the next
     * release may start (RELEASES.md, Upgrades).
     */
    public record Release(String version, String commit, List<String> dataMigrations) {}

    private PreviousRelease() {}

    public static Release named() throws IOException {
        for (String line : Files.readAllLines(PackagedService.ROOT.resolve("RELEASES.md"), StandardCharsets.UTF_8)) {
            Matcher row = ROW.matcher(line);
            if (row.matches()) {
                String jobs = row.group(3).replace("`", "");
                return new Release(
                        row.group(1), row.group(2), jobs.equals("none") ? List.of() : List.of(jobs.split(" *, *")));
            }
        }
        throw new IllegalStateException(
                "RELEASES.md names no release (a row | version | 40-hex commit | migrations | data migrations | ...)");
    }

    /** The previous release's runnable jar, built on first use (about 30 s with a warm Maven repository). */
    public static synchronized Path jar() throws IOException, InterruptedException {
        Release release = named();
        Path dir = PackagedService.ROOT.resolve("target/previous-release/" + release.commit());
        Path jar = dir.resolve("target/quarkus-app/quarkus-run.jar");
        if (Files.exists(jar)) {
            return jar;
        }
        run(
                PackagedService.ROOT.resolve("target"),
                "bash",
                "-c",
                "rm -rf \"$1\" && mkdir -p \"$1\" && git -C \"$2\" archive \"$3\" | tar -x -C \"$1\"",
                "extract",
                dir.toString(),
                PackagedService.ROOT.toString(),
                release.commit());
        List<String> build = new java.util.ArrayList<>(List.of(
                PackagedService.ROOT.resolve("mvnw").toString(),
                "-B",
                "-q",
                "-f",
                dir.resolve("pom.xml").toString(),
                "package"));
        build.addAll(PACKAGE_ONLY);
        run(dir, build.toArray(String[]::new));
        if (!Files.exists(jar)) {
            throw new IllegalStateException("the build of release " + release + " made no " + jar);
        }
        return jar;
    }

    private static void run(Path in, String... command) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command)
                .directory(in.toFile())
                .redirectErrorStream(true)
                .start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(10, TimeUnit.MINUTES) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " failed (is the release's commit in this "
                    + "clone's history?):\n" + output);
        }
    }
}
