package dev.cqlpatterns.pastebin;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/** Listing periods of 3 s and 1 h, so a test can watch listings end in seconds on the nodes' own clock. */
public class ShortListingProfile implements QuarkusTestProfile {

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of("cql-patterns.pastebin.listing-periods", "PT3S,PT1H");
    }
}
