package dev.cqlpatterns.testsupport.fuzz;

import java.util.List;
import java.util.Map;

/**
 * What the malformed requests aim at: the values that make an operation's request valid (the ids of
 * resources made before the run, so the fuzzer hits them), cursors of real lists, and tokens.
 *
 * @param pathValues valid path parameter values by path prefix and name, see {@link #pathValue}
 * @param queryValues valid values of the required query parameters, by name
 * @param headerValues valid values of the header parameters, by name (e.g. the paste's secret)
 * @param cursors real cursors, each a {@code next} of some list
 * @param ownerToken an {@code Authorization} value for the user who owns the targets
 * @param otherToken one for another user
 */
public record Targets(
        Map<String, String> pathValues,
        Map<String, String> queryValues,
        Map<String, String> headerValues,
        List<Cursor> cursors,
        String ownerToken,
        String otherToken) {

    /**
     * A cursor and the list path it pages, e.g. {@code /posts/{id}}: a real one, or one signed with the
     * service's key that holds what no page wrote ({@code forged}).
     */
    public record Cursor(String list, String value, boolean forged) {
        public Cursor(String list, String value) {
            this(list, value, false);
        }
    }

    /**
     * The value for {@code name} in {@code path}: the entry keyed {@code "<first segment>.<name>"}
     * (e.g. {@code "conversations.username"}) wins over the one keyed {@code name}.
     */
    public String pathValue(String path, String name) {
        String first = path.split("/")[1];
        String value = pathValues.getOrDefault(first + "." + name, pathValues.get(name));
        if (value == null) {
            throw new IllegalStateException("no target value for path parameter " + name + " of " + path);
        }
        return value;
    }
}
