package dev.cqlpatterns.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.function.Predicate;
import java.util.stream.IntStream;

/** What partition_generations says of one set (cql/049_partition_generations.cql), read straight from the node. */
public final class SetGenerations {
    /** Removals a read may meet beyond a generation's budget: those counted while the move that ends them runs. */
    public static final int DURING_A_MOVE = 10;

    private SetGenerations() {}

    /** The generation readers of the set read now (0 for a set that never moved). */
    public static int current(StoredRows stored, String set, String key) {
        Row row = state(stored, set, key);
        return row == null ? 0 : row.getInt("current");
    }

    /** Waits until no move of the set is running: moves run after the answer of the removal that started them. */
    public static void settled(StoredRows stored, String set, String key) {
        waitUntil(stored, set, key, "a move of %s %s still running", row -> row == null || row.isNull("next"));
    }

    /**
     * Waits until no move of the set is running and every generation below the one read is dropped
     * (its count of removals forgotten, which the mover does last): before a test traces a read of
     * the set, as the node traces the mover's statements on the set's tables too.
     */
    public static void quiet(StoredRows stored, String set, String key) {
        waitUntil(
                stored,
                set,
                key,
                "a move of %s %s, or the drop of an older generation, still running",
                row -> row == null
                        || (row.isNull("next")
                                && IntStream.range(0, row.getInt("current"))
                                        .noneMatch(older -> counted(stored, set, key, older))));
    }

    private static void waitUntil(StoredRows stored, String set, String key, String what, Predicate<Row> done) {
        pause(300);
        Instant deadline = Instant.now().plus(Duration.ofSeconds(30));
        while (!done.test(state(stored, set, key))) {
            assertThat(Instant.now()).as(what, set, key).isBefore(deadline);
            pause(100);
        }
    }

    private static boolean counted(StoredRows stored, String set, String key, int generation) {
        return !stored.execute(
                        "SELECT removals FROM partition_removals WHERE set_name = ? AND set_key = ? AND generation = ?",
                        set,
                        key,
                        generation)
                .isEmpty();
    }

    /**
     * Runs {@code request} with the node's tracing on and checks that its reads scanned at most
     * {@code most} tombstone cells, after a user's {@code leaves} removals from the set; prints the
     * figure beside that of {@code SELECT count(*) FROM oldTable WHERE username = ?}, the read it
     * replaces, which must scan one per leave. Call it once the set is {@link #quiet}: the trace holds
     * every statement the node ran meanwhile, a drop's too.
     */
    public static void requestScansAtMost(
            StoredRows stored, String request, Runnable action, long most, String oldTable, String user, int leaves) {
        List<ReadTraces.Scan> scans = ReadTraces.during(stored, action);
        long scanned = ReadTraces.tombstones(scans);
        long inOld = ReadTraces.countTombstones(stored, oldTable, "username = ?", user);
        System.out.printf(
                "%s after %d leaves: %d tombstone cells; counting %s: %d%n", request, leaves, scanned, oldTable, inOld);
        assertThat(scanned)
                .as("tombstone cells %s scans, in %s", request, scans)
                .isLessThanOrEqualTo(most);
        assertThat(inOld).as("counting %s, as before", oldTable).isGreaterThanOrEqualTo(leaves);
    }

    private static Row state(StoredRows stored, String set, String key) {
        return stored
                .execute("SELECT current, next FROM partition_generations WHERE set_name = ? AND set_key = ?", set, key)
                .stream()
                .findFirst()
                .orElse(null);
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
