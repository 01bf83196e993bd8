package dev.cqlpatterns.groups;

import dev.cqlpatterns.testsupport.MovableClock;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;
import java.util.Set;

/** A settable clock and small caps, so day walks and limits are reached with a few rows. */
public class SmallLimitsProfile implements QuarkusTestProfile {

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(MovableClock.class);
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "cql-patterns.groups.latest-max-days", "2",
                "cql-patterns.groups.max-groups-per-user", "3",
                "cql-patterns.posts.max-comments", "3");
    }
}
