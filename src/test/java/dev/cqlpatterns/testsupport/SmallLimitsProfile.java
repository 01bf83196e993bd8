package dev.cqlpatterns.testsupport;

import java.util.HashMap;
import java.util.Map;

/**
 * A settable clock (behind a proxy, as {@link MovableClockProfile}) and small limits, so day walks,
 * caps and listing periods are reached with a few rows and in seconds. One profile for every
 * feature's small limits: each profile is one more Quarkus application to build and start in the
 * test run (about 10 s each here), and no test here reaches a limit it does not set out to.
 */
public class SmallLimitsProfile extends MovableClockProfile {
    /** Conversations a user may create. */
    public static final int OWN_CONVERSATIONS = 3;
    /** Conversations others may add a user to. */
    public static final int ADDED_CONVERSATIONS = 4;
    /** Unread messages counted exactly; one more is answered as "3+". */
    public static final int UNREAD_CAP = 3;

    @Override
    public Map<String, String> getConfigOverrides() {
        Map<String, String> overrides = new HashMap<>(super.getConfigOverrides());
        overrides.putAll(Map.of(
                "cql-patterns.groups.latest-max-days", "2",
                "cql-patterns.groups.max-groups-per-user", "3",
                "cql-patterns.posts.max-comments", "3",
                "cql-patterns.messenger.max-conversations-per-user", String.valueOf(OWN_CONVERSATIONS),
                "cql-patterns.messenger.max-added-conversations-per-user", String.valueOf(ADDED_CONVERSATIONS),
                "cql-patterns.messenger.unread-count-cap", String.valueOf(UNREAD_CAP),
                // Listing periods of 3 s and 1 h: a test watches listings end in seconds on the nodes' own clock.
                "cql-patterns.pastebin.listing-periods", "PT3S,PT1H"));
        return overrides;
    }
}
