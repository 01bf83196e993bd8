package dev.cqlpatterns.platform.schema;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * docs/tables.md, written from cql/ and the code: for each table of the baseline, its schema as a
 * new keyspace gets it, the classes whose statements use it, and what the files of cql/ say of it
 * (the query it serves, its bounds, the dead rows one read can scan, what each route costs).
 */
final class TablesDoc {
    private static final Pattern CREATE_TABLE =
            Pattern.compile("(?m)^CREATE TABLE IF NOT EXISTS (\\w+) \\((.*?)\\n\\) WITH (.*?);$", Pattern.DOTALL);
    private static final Pattern OPTION = Pattern.compile(
            "(?m)^\\s+AND (default_time_to_live|gc_grace_seconds) = (\\d+)$|'class':'org\\.apache\\.cassandra\\.db\\.compaction\\.(\\w+)'");
    private static final Pattern CLUSTERING = Pattern.compile("^CLUSTERING ORDER BY \\(([^)]*)\\)");
    private static final Pattern STATEMENT_TABLE =
            Pattern.compile("(?i)\\b(?:TABLE(?: IF NOT EXISTS)?|INDEX[^;]*? ON)\\s+(\\w+)");
    /** The paragraphs of a file's comments this document keeps, by their label. */
    private static final Pattern KEPT = Pattern.compile(
            "^(Serves|Served|Query|Query it serves|Bound|Tombstones[^:]*|Tombstones and expired cells[^:]*):");

    private static final Pattern COST = Pattern.compile("^cost (.+)$");
    private static final Pattern CQL_IN_JAVA =
            Pattern.compile("(?i)\\b(?:FROM|INTO|UPDATE)\\s+(\\w+)\\b|@CqlName\\(\"(\\w+)\"\\)");

    private TablesDoc() {}

    static String generate(Path root) {
        String baseline = read(root.resolve("cql/baseline/schema.cql"));
        Map<String, Set<String>> users = statementsByTable(root.resolve("src/main/java"));
        Map<String, List<String>> notes = notesByTable(root.resolve("cql"));
        StringBuilder out = new StringBuilder();
        out.append("# Tables\n\n")
                .append(
                        "Generated from `cql/` and `src/main/java` by `platform.schema.TablesDocTest`; never edited by hand:\n")
                .append("`./mvnw test -Dtest=TablesDocTest -Dtables.write=true` writes it again. Each table: its\n")
                .append("schema as a new keyspace gets it (`cql/baseline/schema.cql`), the classes whose statements\n")
                .append("use it, and what the files of `cql/` say of the query it serves, its bounds, the dead rows\n")
                .append("one read can scan and what each route costs (`X-Statements`, `X-Partitions-Read`).\n");
        Matcher table = CREATE_TABLE.matcher(baseline);
        while (table.find()) {
            String name = table.group(1);
            out.append("\n## ").append(name).append("\n\n```\n");
            for (String column : table.group(2).strip().split("\\n")) {
                out.append(column.strip()).append('\n');
            }
            out.append("```\n\n");
            List<String> options = new ArrayList<>();
            Matcher clustering = CLUSTERING.matcher(table.group(3));
            if (clustering.find()) {
                options.add("clustering " + clustering.group(1));
            }
            Matcher option = OPTION.matcher(table.group(3));
            while (option.find()) {
                options.add(option.group(3) != null ? option.group(3) : option.group(1) + " " + option.group(2));
            }
            out.append("- Options: ").append(String.join("; ", options)).append('\n');
            Set<String> classes = users.getOrDefault(name, Set.of());
            out.append("- Statements in: ")
                    .append(classes.isEmpty() ? "none (written and read by no class)" : String.join(", ", classes))
                    .append('\n');
            for (String note : notes.getOrDefault(name, List.of())) {
                out.append("- ").append(note).append('\n');
            }
        }
        return out.toString();
    }

    /** The classes of {@code sources} whose CQL names each table, as {@code feature/Class}. */
    private static Map<String, Set<String>> statementsByTable(Path sources) {
        Map<String, Set<String>> users = new TreeMap<>();
        try (Stream<Path> files = Files.walk(sources)) {
            for (Path file :
                    files.filter(f -> f.toString().endsWith(".java")).sorted().toList()) {
                String text = read(file).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\\n]*", "");
                String owner = sources.resolve("dev/cqlpatterns")
                        .relativize(file)
                        .toString()
                        .replace('\\', '/')
                        .replaceAll("\\.java$", "");
                Matcher m = CQL_IN_JAVA.matcher(text);
                while (m.find()) {
                    String table = m.group(1) != null ? m.group(1) : m.group(2);
                    users.computeIfAbsent(table, t -> new TreeSet<>()).add("`" + owner + "`");
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return users;
    }

    /**
     * For each table, the kept paragraphs of the comments above each statement of cql/ that creates
     * or changes it, one line each, with the file they come from.
     */
    private static Map<String, List<String>> notesByTable(Path cql) {
        Map<String, List<String>> notes = new TreeMap<>();
        for (String file : read(cql.resolve("INDEX"))
                .lines()
                .map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .toList()) {
            List<String> comment = new ArrayList<>();
            for (String line : read(cql.resolve(file)).lines().toList()) {
                if (line.startsWith("--")) {
                    comment.add(line.substring(2).strip());
                    continue;
                }
                Matcher statement = STATEMENT_TABLE.matcher(line);
                if (statement.find()) {
                    List<String> table = notes.computeIfAbsent(statement.group(1), t -> new ArrayList<>());
                    for (String paragraph : kept(comment)) {
                        table.add(paragraph + " (`cql/" + file + "`)");
                    }
                    comment.clear();
                } else if (line.isBlank() && comment.isEmpty()) {
                    comment.clear();
                }
            }
        }
        return notes;
    }

    /** The kept paragraphs of one comment: a labelled line and the lines after it, up to a blank or the next label. */
    private static List<String> kept(List<String> comment) {
        List<String> kept = new ArrayList<>();
        StringBuilder paragraph = null;
        for (String line : comment) {
            boolean label = line.matches("^[A-Z][A-Za-z ,()'-]{0,60}:.*")
                    || COST.matcher(line).matches();
            if (line.isEmpty() || label) {
                if (paragraph != null) {
                    kept.add(paragraph.toString());
                    paragraph = null;
                }
                Matcher cost = COST.matcher(line);
                if (cost.matches()) {
                    kept.add("Cost of " + cost.group(1));
                } else if (KEPT.matcher(line).find()) {
                    paragraph = new StringBuilder(line);
                }
            } else if (paragraph != null) {
                paragraph.append(' ').append(line);
            }
        }
        if (paragraph != null) {
            kept.add(paragraph.toString());
        }
        return kept;
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
