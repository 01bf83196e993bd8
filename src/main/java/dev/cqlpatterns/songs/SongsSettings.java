package dev.cqlpatterns.songs;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "cql-patterns.songs")
public interface SongsSettings {

    /** Tags one song may carry (bounds the set and the batch that keeps songs_by_tag in step). */
    @WithDefault("32")
    int maxTags();
}
