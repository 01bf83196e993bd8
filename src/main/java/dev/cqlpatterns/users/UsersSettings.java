package dev.cqlpatterns.users;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "cql-patterns.users")
public interface UsersSettings {

    /** How many address kinds one user may keep (bounds the addresses map). */
    @WithDefault("10")
    int maxAddresses();
}
