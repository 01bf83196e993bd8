package dev.cqlpatterns.groups;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;

@ConfigMapping(prefix = "cql-patterns.groups")
public interface GroupsSettings {

    /**
     * Member partitions of a group created from now on (a group keeps the count it was created
     * with). A page of members reads all of them, so more buckets means bigger groups fit, at
     * the price of more partitions per page.
     */
    @WithDefault("16")
    int buckets();

    /** How many groups one user may join (bounds groups_by_user). */
    @WithDefault("500")
    int maxGroupsPerUser();

    /** Days of joins one page of latest joiners visits at most (each is a partition read). */
    @WithDefault("31")
    int latestMaxDays();
}
