package dev.cqlpatterns.platform.paging;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

@ConfigMapping(prefix = "cql-patterns.paging")
public interface PagingSettings {

    /** Page size when a list call gives no limit. */
    @WithDefault("50")
    int defaultLimit();

    /** The largest limit a list call may ask for. */
    @WithDefault("500")
    int maxLimit();

    /**
     * Key that signs cursors. All replicas must share it (a cursor from one must work on another);
     * without one, each process makes a random key and cursors do not survive a restart.
     */
    Optional<String> cursorSecret();
}
