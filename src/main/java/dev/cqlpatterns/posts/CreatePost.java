package dev.cqlpatterns.posts;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.NewResource;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.idempotency.IdempotencyKeys;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.openapi.ApiDefinition;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.hibernate.validator.constraints.CodePointLength;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * POST /posts: the caller writes a post. Only the static columns of a new post_and_comments
 * partition are written; the id is a timeuuid, so it also says when the post was written.
 *
 * <p>Safe to retry with an Idempotency-Key (platform.idempotency): the id and the write timestamp
 * are planned and kept with the key first, and the insert is written USING TIMESTAMP of the plan,
 * so a retry that writes it again cannot reset a comment_count that comments have raised since.
 */
@IfBuildProperty(name = FunctionGroup.Property.POSTS, stringValue = "true", enableIfMissing = true)
@Path("/posts")
@Tag(name = "posts")
public class CreatePost {
    static final int BODY_MAX = 10_000;
    public static final String OPERATION = "POST /posts";

    @Inject
    PostAndComments posts;

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @Schema(name = "NewPost")
    public record NewPost(
            @NotBlank
            @CodePointLength(max = BODY_MAX)
            @Pattern(regexp = Text.FREE_TEXT, message = Text.FREE_TEXT_MESSAGE)
            @Schema(
                    examples = "Data modelling is query first.",
                    pattern = Text.FREE_TEXT_NOT_BLANK,
                    maxLength = BODY_MAX)
            String body) {}

    @Schema(name = "Created")
    public record Created(
            @Schema(format = "uuid", description = "The new resource's id", examples = PostIds.EXAMPLE)
            String id) {}

    @Inject
    IdempotencyKeys idempotency;

    /** What a create writes, fixed before its first write (kept with its Idempotency-Key). */
    @RegisterForReflection
    public record Plan(UUID id, long writtenAt) {}

    @POST
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Write a post")
    @APIResponse(
            responseCode = "201",
            description = "Created (or, with a reused Idempotency-Key, created before)",
            headers = {
                @Header(
                        name = "Location",
                        description = "Path of the new post, /posts/{id}",
                        schema =
                                @Schema(
                                        type = SchemaType.STRING,
                                        format = "uri-reference",
                                        pattern = "^/posts/" + NewResource.UUID_PATH,
                                        maxLength = 43))
            },
            content = @Content(schema = @Schema(implementation = Created.class)))
    @APIResponse(responseCode = "409", description = "The Idempotency-Key was used before for a different post")
    public Uni<RestResponse<Created>> create(
            @Parameter(ref = ApiDefinition.IDEMPOTENCY_KEY) @HeaderParam(IdempotencyKeys.HEADER) String key,
            @Valid @NotNull NewPost request) {
        String author = caller.username();
        return idempotency
                .run(
                        OPERATION,
                        author,
                        key,
                        request,
                        Plan.class,
                        // Wall clock, not the service's Clock: write timestamps order writes.
                        () -> new Plan(
                                TimeUuids.at(clock.instant()), ChronoUnit.MICROS.between(Instant.EPOCH, Instant.now())),
                        (plan, retry) -> posts.createPost(plan.id(), author, request.body(), plan.writtenAt()))
                .map(done -> done.respond(
                        NewResource.<Created>at("/posts/" + done.plan().id())
                                .entity(new Created(done.plan().id().toString()))));
    }
}
