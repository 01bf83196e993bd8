package dev.cqlpatterns.platform;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;

/**
 * Budgets small enough to run out in a test, refilled only after an hour; client addresses from
 * X-Forwarded-For (as behind the ingress with HTTP_BEHIND_PROXY=true), so one test plays several
 * anonymous callers.
 */
public class SmallRateLimitsProfile implements QuarkusTestProfile {
    static final int READS = 50;
    static final int WRITES = 4;
    static final int BODY_BYTES = 3000;

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "cql-patterns.rate-limits.reads.capacity", String.valueOf(READS),
                "cql-patterns.rate-limits.reads.period", "PT1H",
                "cql-patterns.rate-limits.writes.capacity", String.valueOf(WRITES),
                "cql-patterns.rate-limits.writes.period", "PT1H",
                "cql-patterns.rate-limits.body-bytes.capacity", String.valueOf(BODY_BYTES),
                "cql-patterns.rate-limits.body-bytes.period", "PT1H",
                "quarkus.http.proxy.proxy-address-forwarding", "true",
                "quarkus.http.proxy.allow-x-forwarded", "true");
    }
}
