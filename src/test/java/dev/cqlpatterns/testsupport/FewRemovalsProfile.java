package dev.cqlpatterns.testsupport;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Sets move on after {@value #REMOVALS} removals (cql/049_partition_generations.cql), so a test sees
 * several moves within a few hundred requests, and drop their old generation after a second.
 */
public class FewRemovalsProfile implements QuarkusTestProfile {
    public static final int REMOVALS = 40;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "cql-patterns.generations.removals",
                String.valueOf(REMOVALS),
                "cql-patterns.generations.drop-delay",
                "PT1S");
    }
}
