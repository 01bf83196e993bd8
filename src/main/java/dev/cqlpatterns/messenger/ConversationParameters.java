package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.openapi.SharedParameters;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFilter;

/** The conversation id of the /conversations/{id} routes, described once in the contract. */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class ConversationParameters extends SharedParameters implements OASFilter {
    static final String ID = "ConversationId";

    public ConversationParameters() {
        share(ID, inPath("id", "Conversation id", "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b", uuid()));
    }
}
