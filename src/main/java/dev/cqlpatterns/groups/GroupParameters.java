package dev.cqlpatterns.groups;

import dev.cqlpatterns.platform.openapi.SharedParameters;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFilter;

/** The group name of the /groups/{group} routes, described once in the contract. */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class GroupParameters extends SharedParameters implements OASFilter {
    static final String GROUP = "GroupName";

    public GroupParameters() {
        share(GROUP, inPath("group", "Group name", "cassandra-users", string(Groups.NAME)));
    }
}
