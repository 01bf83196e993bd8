package dev.cqlpatterns.posts;

import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.CompareAndSet.Step;
import dev.cqlpatterns.platform.errors.ProblemException;
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
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
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
 * POST /posts/{id}/comments: the caller comments on a post. The comment row and the post's
 * comment_count (a static column) are written by one conditional update on the count, so the
 * count is exact under concurrency and the comment over cql-patterns.posts.max-comments is refused:
 * that cap is what bounds the partition. A comment that loses the race to another one is tried again
 * on the count Cassandra answered (CompareAndSet, at most cql-patterns.cassandra.cas-attempts); an
 * unknown outcome is learnt by a serial read of the comment's own row.
 *
 * <p>Safe to retry with an Idempotency-Key (platform.idempotency): the comment's id is planned and
 * kept with the key first. The conditional update is not idempotent (it raises the count), so a
 * retry first reads the comment at SERIAL and writes it only if the first attempt did not.
 */
@IfBuildProperty(name = FunctionGroup.Property.POSTS, stringValue = "true", enableIfMissing = true)
@Path("/posts/{id}/comments")
@Tag(name = "posts")
public class AddComment {
    static final int BODY_MAX = 2_000;

    @Inject
    IdempotencyKeys idempotency;

    /** What a comment writes, fixed before its first write (kept with its Idempotency-Key). */
    @RegisterForReflection
    public record Plan(UUID commentId) {}

    @Inject
    PostAndComments comments;

    @Inject
    PostsSettings settings;

    @Inject
    CompareAndSet cas;

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @Schema(name = "NewComment")
    public record NewComment(
            @NotBlank
            @CodePointLength(max = BODY_MAX)
            @Pattern(regexp = Text.FREE_TEXT, message = Text.FREE_TEXT_MESSAGE)
            @Schema(examples = "Query first, then tables.", pattern = Text.FREE_TEXT_NOT_BLANK, maxLength = BODY_MAX)
            String body) {}

    @POST
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Comment on a post")
    @APIResponse(
            responseCode = "201",
            description = "Created (or, with a reused Idempotency-Key, created before)",
            headers = {
                @Header(
                        name = "Location",
                        description =
                                "Path of the post the comment is on, /posts/{id}; its " + "id is the new comment's",
                        schema =
                                @Schema(
                                        type = SchemaType.STRING,
                                        format = "uri-reference",
                                        pattern = "^/posts/" + NewResource.UUID_PATH,
                                        maxLength = 43))
            },
            content = @Content(schema = @Schema(implementation = CreatePost.Created.class)))
    @APIResponse(
            responseCode = "409",
            description = "The post has the maximum number of comments, or the "
                    + "Idempotency-Key was used before for a different comment")
    public Uni<RestResponse<CreatePost.Created>> comment(
            @Parameter(ref = PostParameters.ID) @PathParam("id") String id,
            @Parameter(ref = ApiDefinition.IDEMPOTENCY_KEY) @HeaderParam(IdempotencyKeys.HEADER) String key,
            @Valid @NotNull NewComment request) {
        String commenter = caller.username();
        UUID post = PostIds.parse(id);
        return idempotency
                .run(
                        "POST /posts/" + post + "/comments",
                        commenter,
                        key,
                        request,
                        Plan.class,
                        () -> new Plan(TimeUuids.at(clock.instant())),
                        (plan, retry) -> retry
                                ? finish(post, plan.commentId(), commenter, request.body())
                                : write(post, plan.commentId(), commenter, request.body()))
                .map(done -> done.respond(NewResource.<CreatePost.Created>at("/posts/" + id)
                        .entity(new CreatePost.Created(done.plan().commentId().toString()))));
    }

    /** A retry: writes the comment unless the first attempt did (a SERIAL read sees its conditional write). */
    private Uni<Void> finish(UUID post, UUID comment, String commenter, String body) {
        return comments.hasComment(post, comment)
                .chain(there -> there ? Uni.createFrom().voidItem() : write(post, comment, commenter, body));
    }

    private Uni<Void> write(UUID post, UUID comment, String commenter, String body) {
        return cas.<Integer, Void>run(
                attempt -> comments.commentCount(post, attempt),
                count -> {
                    if (count == null) {
                        return Step.done(Uni.createFrom().failure(ProblemException.notFound("No post " + post)));
                    }
                    if (count >= settings.maxComments()) {
                        return Step.done(Uni.createFrom()
                                .failure(ProblemException.conflict("The post has " + settings.maxComments()
                                        + " comments, the most a post takes")));
                    }
                    return Step.write(
                            "post_and_comments",
                            comments.addComment(post, comment, commenter, body, count),
                            // The comment's row (its own timeuuid) is there: our write holds.
                            () -> comments.hasComment(post, comment),
                            () -> Uni.createFrom().voidItem());
                },
                () -> ProblemException.conflict("Too many comments at once on this post; retry"));
    }
}
