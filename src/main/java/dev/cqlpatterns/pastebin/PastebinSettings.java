package dev.cqlpatterns.pastebin;

import io.quarkus.runtime.configuration.MemorySize;
import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.time.Period;
import java.util.List;
import java.util.Optional;

@ConfigMapping(prefix = "cql-patterns.pastebin")
public interface PastebinSettings {

    /** Largest paste body, in UTF-8 bytes; a larger one is a 413. */
    @WithDefault("512K")
    MemorySize maxBodySize();

    /** Longest title, in characters. */
    @WithDefault("200")
    int maxTitleLength();

    /** Expiry of a paste created without expiresIn; unset means such pastes never expire. */
    Optional<Duration> defaultExpiresIn();

    /** The longest expiresIn a client may ask for. */
    @WithDefault("P365D")
    Duration maxExpiresIn();

    /** How far back GET /pastes lists public pastes; older days are dropped from the list. */
    @WithDefault("P30D")
    Period listRetention();

    /**
     * How long GET /pastes lists a public paste, with the list's retention as the longest: the
     * longest of these the paste lives at least (docs/tables.md, latest_public_pastes_by_period, says why).
     */
    @WithDefault("PT1M,PT10M,PT1H,PT6H,P1D,P7D")
    List<Duration> listingPeriods();
}
