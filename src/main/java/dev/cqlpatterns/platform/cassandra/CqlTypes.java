package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.type.reflect.GenericType;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Java types of the collection columns, built once. {@code row.getSet(name, String.class)} builds
 * a new {@link GenericType} (a reflective type token) on every call: in a history page of 50
 * messages with three collections each, that was about a tenth of the service's CPU.
 */
public final class CqlTypes {
    public static final GenericType<Set<String>> SET_OF_TEXT = GenericType.setOf(String.class);
    public static final GenericType<List<String>> LIST_OF_TEXT = GenericType.listOf(String.class);
    public static final GenericType<Map<String, String>> MAP_OF_TEXT = GenericType.mapOf(String.class, String.class);
    public static final GenericType<Map<String, Instant>> MAP_OF_TEXT_TO_TIMESTAMP =
            GenericType.mapOf(String.class, Instant.class);
    public static final GenericType<Map<String, Long>> MAP_OF_TEXT_TO_BIGINT =
            GenericType.mapOf(String.class, Long.class);

    private CqlTypes() {}
}
