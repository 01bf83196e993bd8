package dev.cqlpatterns.platform.openapi;

import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.Components;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * The contract's tags, one per feature, each naming the seed whose query patterns it serves; and
 * the Idempotency-Key every create takes (platform.idempotency.IdempotencyKeys), described once.
 */
@OpenAPIDefinition(
        info = @Info(title = "cql-patterns", version = "0.14.0-SNAPSHOT"),
        components =
                @Components(
                        parameters =
                                @Parameter(
                                        name = ApiDefinition.IDEMPOTENCY_KEY,
                                        in = ParameterIn.HEADER,
                                        description =
                                                "Makes the create safe to retry (after a 503, a timeout or a lost connection). Use a "
                                                        + "new random value, such as a UUID, for each create and send it again, unchanged, with every "
                                                        + "retry of that create. A retry with the same key and the same request answers what the first "
                                                        + "one answered (same status, same body: the same id, and for a paste the same secret) with "
                                                        + "header Idempotent-Replayed: true, finishes a create the first attempt left half done, and "
                                                        + "stores nothing twice. The same key with a different request answers 409. Keys are kept "
                                                        + "24 hours (cql-patterns.idempotency.ttl); later the key is new again. A key belongs to one "
                                                        + "caller and one operation; on anonymous creates (POST /pastes) whoever holds the key can "
                                                        + "replay the answer, so it must be hard to guess. The key itself is not stored, only a hash.",
                                        example = "3f1c2b7e-9d4a-4c55-8e3b-6a1f0d2c9b87",
                                        schema =
                                                @Schema(
                                                        type = SchemaType.STRING,
                                                        minLength = 1,
                                                        maxLength = 200,
                                                        pattern = "^[\\x21-\\x7E]+$")),
                        headers =
                                @Header(
                                        name = ApiDefinition.REPLAYED,
                                        description = "true when the answer replays the one given "
                                                + "earlier to the same Idempotency-Key (absent otherwise)",
                                        schema = @Schema(type = SchemaType.BOOLEAN))),
        tags = {
            @Tag(name = "ring", description = "The token ring and partition placement (seed 004)"),
            @Tag(name = "messenger", description = "Conversations, messages, inbox, unread counts (seeds 000 and 001)"),
            @Tag(name = "courses", description = "Courses with modules and course page views (seed 002)"),
            @Tag(name = "clickstream", description = "Clicks bucketed by month (seed 002)"),
            @Tag(
                    name = "pastebin",
                    description =
                            "Pastes with secrets, visibility and expiry (seed 003); a paste is listed only while it lives"),
            @Tag(name = "users", description = "Users by username and by email, addresses (seed 004)"),
            @Tag(name = "groups", description = "Groups in username order and latest joiners (seed 004)"),
            @Tag(name = "songs", description = "Songs and songs by tag (seed 004)"),
            @Tag(name = "posts", description = "Posts with comments (seed 004)")
        })
public class ApiDefinition extends Application {
    /** Name of the shared Idempotency-Key parameter component: {@code @Parameter(ref = IDEMPOTENCY_KEY)}. */
    public static final String IDEMPOTENCY_KEY = "Idempotency-Key";
    /**
     * Name of the path parameter component of the routes on the caller's own user, {@code /users/{username}/…}
     * and {@code /groups/{group}/members/{username}}: {@code @Parameter(ref = CALLER)}.
     */
    public static final String CALLER = "CallerUsername";
    /** Name of the shared Idempotent-Replayed header component. */
    public static final String REPLAYED = "Idempotent-Replayed";
}
