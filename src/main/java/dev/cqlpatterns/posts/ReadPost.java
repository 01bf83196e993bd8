package dev.cqlpatterns.posts;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /posts/{id}: the post and a page of its comments, newest first, from one partition of
 * post_and_comments: the body, author and count are static columns, returned with every comment
 * row (and alone when there is no comment yet). The cursor is the last comment's timeuuid.
 */
@IfBuildProperty(name = FunctionGroup.Property.POSTS, stringValue = "true", enableIfMissing = true)
@Path("/posts/{id}")
@Tag(name = "posts")
public class ReadPost {

    @Inject
    PostAndComments posts;

    @Inject
    Cursors cursors;

    @Schema(name = "Comment")
    public record Comment(
            @Schema(format = "uuid", examples = "6a1b2c3d-5aa7-11ef-8000-0123456789ab")
            String id,

            @Schema(pattern = Usernames.ANSWERED, examples = "bob")
            String commenter,

            @Schema(
                    pattern = Text.FREE_TEXT_NOT_BLANK,
                    maxLength = AddComment.BODY_MAX,
                    examples = "Query first, then tables.")
            String body,

            @Schema(examples = "2026-05-16T14:05:00Z") Instant postedAt) {}

    @Schema(name = "PostWithComments")
    public record Post(
            @Schema(format = "uuid", examples = PostIds.EXAMPLE)
            String id,

            @Schema(pattern = Usernames.ANSWERED, examples = "alice")
            String author,

            @Schema(
                    pattern = Text.FREE_TEXT_NOT_BLANK,
                    maxLength = CreatePost.BODY_MAX,
                    examples = "Data modelling is query first.")
            String body,

            @Schema(examples = "2026-05-16T14:00:00Z") Instant postedAt,

            @Schema(description = "All comments of the post", examples = "12")
            int commentCount,

            @Schema(description = "A page of comments, newest first")
            Page<Comment> comments) {}

    /** Read back from cursors by Jackson, also in a native image. */
    @RegisterForReflection
    record Position(@NotNull UUID before) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "A post with its comments newest first (one partition read)")
    public Uni<Post> read(
            @Parameter(ref = PostParameters.ID) @PathParam("id") String id,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor) {
        UUID post = PostIds.parse(id);
        int size = cursors.limit(limit);
        String scope = "post-comments:" + post;
        UUID before = cursors.decode(scope, cursor, Position.class)
                .map(Position::before)
                .orElse(null);
        return posts.read(post, before, size + 1).map(read -> {
            if (read == null) {
                throw ProblemException.notFound("No post " + id);
            }
            List<Comment> comments = read.comments();
            String next = null;
            if (comments.size() > size) {
                comments = comments.subList(0, size);
                next = cursors.encode(
                        scope,
                        new Position(UUID.fromString(comments.get(size - 1).id())));
            }
            return new Post(
                    post.toString(),
                    read.author(),
                    read.body(),
                    TimeUuids.instant(post),
                    read.commentCount(),
                    Page.of(comments, next));
        });
    }
}
