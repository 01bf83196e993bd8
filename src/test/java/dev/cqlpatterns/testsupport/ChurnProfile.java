package dev.cqlpatterns.testsupport;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * For the tests that churn data through the routes: sets move on after {@value #REMOVALS} removals
 * (cql/049_partition_generations.cql), so a test sees several moves within a few hundred requests,
 * and drop their old generation after a second; unread counts are exact up to 9,999, so a test can
 * count hundreds of concurrent sends.
 */
public class ChurnProfile implements QuarkusTestProfile {
    public static final int REMOVALS = 40;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "cql-patterns.generations.removals",
                String.valueOf(REMOVALS),
                "cql-patterns.generations.drop-delay",
                "PT1S",
                "cql-patterns.messenger.unread-count-cap",
                "9999");
    }
}
