package dev.cqlpatterns.platform.paging;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.util.Optional;

@ConfigMapping(prefix = "cql-patterns.paging")
public interface PagingSettings {
    /** Defaults, also read by the contract (platform.openapi.ContractFilter), which is built without CDI. */
    String DEFAULT_LIMIT = "50";

    String MAX_LIMIT = "500";

    /** Page size when a list call gives no limit. */
    @WithDefault(DEFAULT_LIMIT)
    int defaultLimit();

    /** The largest limit a list call may ask for. */
    @WithDefault(MAX_LIMIT)
    int maxLimit();

    /**
     * Bucket reads one page of a bucketed list makes at most (each is one partition read, a month of
     * clicks one per shard): a page that has not filled by then ends short, with a cursor where it
     * stopped. See platform.buckets.BucketWalk.
     */
    @WithDefault("31")
    int maxBuckets();

    /**
     * Key that signs cursors. All replicas must share it (a cursor from one must work on another);
     * without one, each process makes a random key and cursors do not survive a restart.
     */
    Optional<String> cursorSecret();
}
