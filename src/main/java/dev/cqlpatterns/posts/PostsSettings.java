package dev.cqlpatterns.posts;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "cql-patterns.posts")
public interface PostsSettings {

    /** Comments one post takes (bounds its partition); the next one is refused with 409. */
    @WithDefault("10000")
    int maxComments();
}
