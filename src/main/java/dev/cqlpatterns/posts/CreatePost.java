package dev.cqlpatterns.posts;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.net.URI;
import java.time.Clock;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * POST /posts: the caller writes a post. Only the static columns of a new post_and_comments
 * partition are written; the id is a timeuuid, so it also says when the post was written.
 */
@IfBuildProperty(name = FunctionGroup.Property.POSTS, stringValue = "true", enableIfMissing = true)
@Path("/posts")
@Tag(name = "posts")
public class CreatePost {
    static final int BODY_MAX = 10_000;
    private static final Query INSERT = Cql.idempotent(
            "INSERT INTO post_and_comments (post_id, author, post_body, comment_count) VALUES (?, ?, ?, 0)");

    @Inject
    Cql cql;

    @Inject
    Caller caller;

    @Inject
    Clock clock;

    @Schema(name = "NewPost")
    public record NewPost(
            @NotBlank @Size(max = BODY_MAX) @Schema(examples = "Data modelling is query first.", pattern = Text.NOT_BLANK) String body) {
    }

    @Schema(name = "Created")
    public record Created(@Schema(format = "uuid", description = "The new resource's id", examples = "5f4dcc3b-5aa7-11ef-8000-0123456789ab") String id) {
    }

    @POST
    @Authenticated
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Write a post")
    @APIResponse(responseCode = "201", description = "Created", headers = @Header(name = "Location",
            description = "Path of the new post, /posts/{id}", schema = @Schema(type = SchemaType.STRING, format = "uri-reference")),
            content = @Content(schema = @Schema(implementation = Created.class)))
    public Uni<RestResponse<Created>> create(@Valid @NotNull NewPost request) {
        String author = caller.username();
        UUID id = TimeUuids.at(clock.instant());
        return cql.write(INSERT, id, author, request.body()).map(rs -> RestResponse.ResponseBuilder
                .<Created>created(URI.create("/posts/" + id)).entity(new Created(id.toString())).build());
    }
}
