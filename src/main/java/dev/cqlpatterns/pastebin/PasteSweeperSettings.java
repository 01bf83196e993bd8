package dev.cqlpatterns.pastebin;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;

/** Schedule and knobs of the paste expiry sweeper. */
@ConfigMapping(prefix = "cql-patterns.scheduler.paste-sweeper")
public interface PasteSweeperSettings {

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
