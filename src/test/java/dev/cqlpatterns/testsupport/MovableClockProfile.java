package dev.cqlpatterns.testsupport;

import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Map;
import java.util.Set;

/**
 * Runs a test class with {@link MovableClock} as the service's clock, and behind a proxy as in
 * Kubernetes (client addresses from X-Forwarded-For).
 */
public class MovableClockProfile implements QuarkusTestProfile {

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(MovableClock.class);
    }

    @Override
    public Map<String, String> getConfigOverrides() {
        return Map.of(
                "quarkus.http.proxy.proxy-address-forwarding", "true", "quarkus.http.proxy.allow-x-forwarded", "true");
    }
}
