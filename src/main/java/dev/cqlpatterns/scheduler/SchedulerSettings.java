package dev.cqlpatterns.scheduler;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/**
 * Schedules and knobs of the cluster-wide jobs. The {@code every} values are also read by the
 * jobs' {@code @Scheduled} annotations, so they sit in application.properties too.
 */
@ConfigMapping(prefix = "cql-patterns.scheduler")
public interface SchedulerSettings {

    Roller roller();

    PasteSweeper pasteSweeper();

    interface Roller {
        /** How often the bucket roller runs (once per interval across all replicas). */
        @WithDefault("5m")
        Duration every();

        /** How long before a bucket's time begins the roller opens it. */
        @WithDefault("PT2H")
        Duration openAhead();

        /** How long after a bucket's time ends the roller closes it (late writes still land). */
        @WithDefault("PT10M")
        Duration closeAfter();
    }

    interface PasteSweeper {
        /** How often the paste expiry sweeper runs (once per interval across all replicas). */
        @WithDefault("1m")
        Duration every();

        /**
         * How far back each run looks for expired listed pastes; longer than {@code every} so a
         * late or skipped run leaves nothing behind. At most one day.
         */
        @WithDefault("PT10M")
        Duration lookback();
    }
}
