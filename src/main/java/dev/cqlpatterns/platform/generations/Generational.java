package dev.cqlpatterns.platform.generations;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import io.smallrye.mutiny.Uni;
import java.util.Arrays;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One statement of a {@link GenerationalSet} in both homes of its rows: generation 0 is the set's own table, a
 * moved generation its _generations table, whose key is the same with the generation right after the partition
 * key. Both statements take the same values in the same order, and the moved one takes the generation too:
 * this binds it where the moved statement has its {@code generation} marker, so an owner names each statement
 * once and never chooses between the two.
 */
public final class Generational {
    private static final Pattern WHERE_GENERATION = Pattern.compile("\\bgeneration = \\?");
    private static final Pattern INSERT_COLUMNS = Pattern.compile("^INSERT INTO \\w+ \\(([^)]*)\\) VALUES");

    private final Query base;
    private final Query moved;
    /** The index of the generation among the moved statement's values. */
    private final int at;

    private Generational(Query base, Query moved, int at) {
        this.base = base;
        this.moved = moved;
        this.at = at;
    }

    /** Idempotent statements ({@link Cql#idempotent}) on generation 0 and on a moved generation. */
    public static Generational idempotent(String base, String moved) {
        return new Generational(Cql.idempotent(base), Cql.idempotent(moved), generationAt(base, moved));
    }

    /** Reads generation {@code generation} with {@code values}, the generation left out. */
    public Uni<AsyncResultSet> read(Cql cql, int generation, Object... values) {
        return cql.read(query(generation), values(generation, values));
    }

    /** The same, with {@code adjust} applied to the statement (paging through a partition). */
    public Uni<AsyncResultSet> read(
            Cql cql, int generation, UnaryOperator<BoundStatementBuilder> adjust, Object... values) {
        return cql.read(query(generation), adjust, values(generation, values));
    }

    /** Writes to generation {@code generation} with {@code values}, the generation left out. */
    public Uni<AsyncResultSet> write(Cql cql, int generation, Object... values) {
        return cql.write(query(generation), values(generation, values));
    }

    private Query query(int generation) {
        return generation == 0 ? base : moved;
    }

    private Object[] values(int generation, Object[] values) {
        if (generation == 0) {
            return values;
        }
        Object[] all = new Object[values.length + 1];
        System.arraycopy(values, 0, all, 0, at);
        all[at] = generation;
        System.arraycopy(values, at, all, at + 1, values.length - at);
        return all;
    }

    /**
     * Where the moved statement binds the generation: its {@code generation = ?}, or the generation's column
     * of an INSERT (whose other markers follow its VALUES). Refuses a pair whose moved statement does not take
     * exactly one value more than the base one.
     */
    static int generationAt(String base, String moved) {
        int at;
        Matcher where = WHERE_GENERATION.matcher(moved);
        Matcher insert = INSERT_COLUMNS.matcher(moved);
        if (where.find()) {
            at = markers(moved.substring(0, where.start()));
        } else if (insert.find()) {
            List<String> columns =
                    Arrays.stream(insert.group(1).split(",")).map(String::trim).toList();
            at = columns.indexOf("generation");
        } else {
            at = -1;
        }
        if (at < 0 || markers(moved) != markers(base) + 1) {
            throw new IllegalArgumentException("Not the same statement with a generation: " + base + " / " + moved);
        }
        return at;
    }

    private static int markers(String cql) {
        return (int) cql.chars().filter(c -> c == '?').count();
    }
}
