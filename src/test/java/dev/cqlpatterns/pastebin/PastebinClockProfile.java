package dev.cqlpatterns.pastebin;

import dev.cqlpatterns.testsupport.MovableClock;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;
import java.util.Set;

/**
 * Runs the service on {@link MovableClock}; the scheduled jobs stay off so they do not act on the moved clock.
 * A page of the list makes at most 4 day reads, so the bound is reached with a few pastes.
 */
public class PastebinClockProfile implements QuarkusTestProfile {

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(MovableClock.class);
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("quarkus.scheduler.enabled", "false", "cql-patterns.paging.max-buckets", "4");
    }
}
