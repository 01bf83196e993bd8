package dev.cqlpatterns.messenger;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** Conversation caps small enough to reach with a few requests. */
public class SmallQuotasProfile implements QuarkusTestProfile {
    static final int OWN = 3;
    static final int ADDED = 4;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "cql-patterns.messenger.max-conversations-per-user", String.valueOf(OWN),
                "cql-patterns.messenger.max-added-conversations-per-user", String.valueOf(ADDED));
    }
}
