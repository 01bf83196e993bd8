package dev.cqlpatterns.platform.schema;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The files of {@code cql/} as the artifact carries them: the numbered migrations that
 * {@code cql/INDEX} lists, split into statements and checksummed, and the baseline a fresh keyspace
 * starts from.
 */
public final class MigrationFiles {
    static final String INDEX = "cql/INDEX";
    static final String BASELINE = "baseline/schema.cql";
    private static final Pattern FILE_NAME = Pattern.compile("(\\d{3})_[a-z0-9_]+\\.cql");
    private static final Pattern COVERS = Pattern.compile("^-- covers: (\\S+)$", Pattern.MULTILINE);

    private MigrationFiles() {}

    /**
     * One file of cql/, split into statements. {@code checksum} covers the statements only, with
     * comments dropped and white space folded, so a comment can be fixed in an applied file while
     * a changed statement is still refused; {@code fileChecksum} is what releases before that
     * recorded (the whole file), accepted once and then replaced.
     */
    public record Migration(int version, String name, String checksum, String fileChecksum, List<String> statements) {}

    /**
     * The schema a fresh keyspace starts from: the end state of the files it covers (its "-- covers:"
     * lines), so a new keyspace takes one statement per table, type and index instead of the whole
     * chain. platform.BaselineTest (a test) proves both give the same schema and writes it again.
     */
    public record Baseline(List<Migration> covers, List<String> statements) {}

    /** The migrations listed in cql/INDEX, in order. */
    public static List<Migration> load() {
        List<Migration> migrations = new ArrayList<>();
        int previous = 0;
        for (String name : read(INDEX)
                .lines()
                .map(String::trim)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .toList()) {
            Matcher m = FILE_NAME.matcher(name);
            if (!m.matches()) {
                throw new IllegalStateException("cql/INDEX lists " + name + ", which is not named NNN_name.cql");
            }
            int version = Integer.parseInt(m.group(1));
            if (version <= previous) {
                throw new IllegalStateException("cql/INDEX is not in increasing order at " + name);
            }
            previous = version;
            String text = read("cql/" + name);
            List<String> statements = statements(text);
            migrations.add(new Migration(version, name, statementsChecksum(statements), sha256(text), statements));
        }
        return migrations;
    }

    /** The baseline, its covered files looked up in {@code migrations}; refuses one naming a file that is not there. */
    static Baseline baseline(List<Migration> migrations) {
        String text = read("cql/" + BASELINE);
        Map<String, Migration> byName = migrations.stream().collect(Collectors.toMap(Migration::name, m -> m));
        List<Migration> covers = new ArrayList<>();
        Matcher m = COVERS.matcher(text);
        while (m.find()) {
            Migration covered = byName.get(m.group(1));
            if (covered == null) {
                throw new IllegalStateException(
                        "cql/" + BASELINE + " covers " + m.group(1) + ", which cql/INDEX does not list");
            }
            covers.add(covered);
        }
        return new Baseline(covers, statements(text));
    }

    /** Splits a file into statements: "--" comment lines dropped, each statement ends with ';'. */
    static List<String> statements(String text) {
        String withoutComments = text.lines()
                .filter(line -> !line.stripLeading().startsWith("--"))
                .collect(Collectors.joining("\n"));
        List<String> statements = new ArrayList<>();
        for (String part : withoutComments.split(";\\s*(\\n|$)")) {
            String statement = part.strip();
            if (!statement.isEmpty()) {
                statements.add(statement);
            }
        }
        return statements;
    }

    /**
     * The checksum of what a file does: its statements with comments gone, white space folded to
     * one space and dropped next to punctuation, so re-wrapping a statement changes nothing.
     */
    static String statementsChecksum(List<String> statements) {
        return sha256(statements.stream()
                .map(st -> st.replaceAll("\\s+", " ")
                        .replaceAll(" ?([(),;=<>]) ?", "$1")
                        .strip())
                .collect(Collectors.joining(";\n")));
    }

    private static String read(String resource) {
        try (InputStream in = Thread.currentThread().getContextClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the artifact");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + resource, e);
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-256")
                            .digest(text.replace("\r\n", "\n").getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
