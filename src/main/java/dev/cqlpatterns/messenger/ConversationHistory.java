package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.buckets.BucketWalk;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.UUID;
import java.util.function.Function;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /conversations/{id}/messages: history newest first, optionally sliced in time (as seed 000,
 * cql/SEEDS.md, does with {@code message_id > minTimeuuid(..) AND message_id < maxTimeuuid(..)}).
 *
 * <p>Reads the conversation row (membership), then walks the months that hold messages newest
 * first with platform.buckets.BucketWalk (the list of months is one partition of time_buckets,
 * each month visited one partition), at most cql-patterns.paging.max-buckets months a page. The
 * cursor is the last message returned and its month, or the month where a page cut short by that
 * bound resumes.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations/{id}/messages")
@Tag(name = "messenger")
@Authenticated
public class ConversationHistory {

    @Inject
    Caller caller;

    @Inject
    Cursors cursors;

    @Inject
    BucketWalk walk;

    @Inject
    Conversations conversations;

    @Inject
    Messages messages;

    /** Where the next page starts: in month {@code bucket}, after message {@code after} (null: its newest). */
    @RegisterForReflection // read back from cursors by Jackson, also in a native image
    public record Position(int bucket, UUID after) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "A conversation's messages, newest first (members only)",
            description = "from and to (ISO-8601 instants, both included) slice by the time of the message's timeuuid. "
                    + "Messages live in monthly partitions; the history walks them newest first. X-Partitions-Read: 2 "
                    + "plus one per month visited.")
    public Uni<Page<Message>> history(
            @Parameter(ref = ConversationParameters.ID) @PathParam("id") UUID id,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor,
            @Parameter(
                            description = "Oldest time to include (ISO-8601)",
                            example = "2025-06-01T00:00:00Z",
                            schema = @Schema(type = SchemaType.STRING, format = "date-time"))
                    @QueryParam("from")
                    String from,
            @Parameter(
                            description = "Newest time to include (ISO-8601)",
                            example = "2025-06-30T23:59:59Z",
                            schema = @Schema(type = SchemaType.STRING, format = "date-time"))
                    @QueryParam("to")
                    String to) {
        String me = caller.username();
        int size = cursors.limit(limit);
        Instant fromAt = TimeUuids.sliceBound("from", from, null);
        Instant toAt = TimeUuids.sliceBound("to", to, null);
        if (fromAt != null && toAt != null && fromAt.isAfter(toAt)) {
            throw ProblemException.invalid("from", "must not be after to");
        }
        String scope = "history:" + id + ":" + from + ":" + to;
        Position position = cursors.decode(scope, cursor, Position.class).orElse(null);
        int newest = toAt != null ? Messages.SERIES.granularity().key(toAt) : Integer.MAX_VALUE;
        int oldest = fromAt != null ? Messages.SERIES.granularity().key(fromAt) : 0;
        UUID upper = TimeUuids.endOf(toAt != null ? toAt : TimeUuids.LATEST);
        UUID lower = TimeUuids.startOf(fromAt != null ? fromAt : TimeUuids.EARLIEST);
        BucketWalk.Mark<UUID> mark =
                position == null ? null : new BucketWalk.Mark<>(position.bucket(), position.after());
        return conversations
                .requireMember(id, me)
                .chain(c -> walk.page(
                        Messages.SERIES,
                        id.toString(),
                        newest,
                        oldest,
                        mark,
                        size,
                        walk.budget(),
                        ConversationHistory::key,
                        (month, after, n) -> messages.page(id, month, after, upper, lower, n)
                                .map(found -> BucketWalk.Chunk.of(found, n, ConversationHistory::key))))
                .map(page -> page.toPage(
                        Function.identity(), next -> cursors.encode(scope, new Position(next.bucket(), next.after()))));
    }

    private static UUID key(Message message) {
        return UUID.fromString(message.id());
    }
}
