package dev.cqlpatterns.messenger;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** Runs a test class with GET /inbox in the order of inbox_by_activity (cql/014), the default of production. */
public class ActivityIndexProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        // Prefixed like the test default it replaces (a %test key is looked up before a plain one).
        return Map.of("%test.cql-patterns.messenger.inbox-index", "activity");
    }
}
