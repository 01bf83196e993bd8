package dev.cqlpatterns.posts;

import dev.cqlpatterns.platform.openapi.SharedParameters;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFilter;

/** The post id of the /posts/{id} routes, described once in the contract. */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class PostParameters extends SharedParameters implements OASFilter {
    static final String ID = "PostId";

    public PostParameters() {
        share(
                ID,
                inPath(
                        "id",
                        PostIds.DESCRIPTION,
                        PostIds.EXAMPLE,
                        string(PostIds.PATTERN).format("uuid")));
    }
}
