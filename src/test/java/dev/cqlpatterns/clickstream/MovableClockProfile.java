package dev.cqlpatterns.clickstream;

import dev.cqlpatterns.testsupport.MovableClock;
import io.quarkus.test.junit.QuarkusTestProfile;
import java.util.Set;

/** Runs a test class with {@link MovableClock} as the service's clock. */
public class MovableClockProfile implements QuarkusTestProfile {

    @Override
    public Set<Class<?>> getEnabledAlternatives() {
        return Set.of(MovableClock.class);
    }
}
