package dev.cqlpatterns.pastebin;

import dev.cqlpatterns.platform.openapi.SharedParameters;
import io.quarkus.smallrye.openapi.OpenApiFilter;
import org.eclipse.microprofile.openapi.OASFilter;

/** The paste id of the /pastes/{id} routes and the secret that changes a paste, described once in the contract. */
@OpenApiFilter(OpenApiFilter.RunStage.BUILD)
public class PasteParameters extends SharedParameters implements OASFilter {
    static final String ID = "PasteId";
    static final String SECRET = "PasteSecret";

    public PasteParameters() {
        share(ID, inPath("id", "The paste's id", "5d1f0c36-0b89-4c6b-9b0e-6f8a3f0d2f4e", uuid()));
        share(
                SECRET,
                inHeader(
                        PasteSecrets.HEADER,
                        "The secret from the creation response; missing or wrong: 403, not shaped as one: 400",
                        "q9V3mJf0yZ2cXo6gN1rTt8bE4sW7aD5kL0pHuQxRiMc",
                        string(PasteSecrets.PATTERN)));
    }
}
