package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import dev.cqlpatterns.platform.time.TimeUuids;
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
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /conversations/{id}/messages: history newest first, optionally sliced in time (seed 000's
 * {@code message_id > minTimeuuid(..) AND message_id < maxTimeuuid(..)}).
 *
 * <p>Reads the conversation row (membership), the list of months that hold messages (one
 * partition of time_buckets), then month partitions newest first until the page is full: one
 * partition per month visited. The cursor is the last message returned and its month.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations/{id}/messages")
@Tag(name = "messenger")
@Authenticated
public class ConversationHistory {
    private static final Query FROM_TOP = Cql.idempotent(
            "SELECT " + Messages.COLUMNS + " FROM messages_by_conversation WHERE conversation_id = ? AND bucket = ? "
                    + "AND message_id <= ? AND message_id >= ? LIMIT ?");
    /** Bounds of the times a slice may name; timeuuids end in year 5236. */
    private static final Query AFTER = Cql.idempotent(
            "SELECT " + Messages.COLUMNS + " FROM messages_by_conversation WHERE conversation_id = ? AND bucket = ? "
                    + "AND message_id < ? AND message_id >= ? LIMIT ?");

    @Inject
    Caller caller;

    @Inject
    Cql cql;

    @Inject
    Cursors cursors;

    @Inject
    BucketRegistry buckets;

    @Inject
    Conversations conversations;

    /** Where the next page starts: in month {@code bucket}, after message {@code after} (null: its newest). */
    @RegisterForReflection // read back from cursors by Jackson, also in a native image
    public record Position(int bucket, UUID after) {
    }

    /** What is left to read: the time slice, and where in it. */
    private record Walk(UUID conversationId, List<Integer> months, int next, Position from, UUID upper, UUID lower,
            int wanted, List<Messages.Message> found) {
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "A conversation's messages, newest first (members only)",
            description = "from and to (ISO-8601 instants, both included) slice by the time of the message's timeuuid. "
                    + "Messages live in monthly partitions; the history walks them newest first. X-Partitions-Read: 2 "
                    + "plus one per month visited.")
    public Uni<Page<Messages.Message>> history(
            @Parameter(description = "Conversation id", example = "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b") @PathParam("id") UUID id,
            @Parameter(description = "Page size, 1 to 500 (default 50)", example = "50") @QueryParam("limit") Integer limit,
            @Parameter(description = "The next value of the previous page") @QueryParam("cursor") String cursor,
            @Parameter(description = "Oldest time to include (ISO-8601)", example = "2025-06-01T00:00:00Z",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time")) @QueryParam("from") String from,
            @Parameter(description = "Newest time to include (ISO-8601)", example = "2025-06-30T23:59:59Z",
                    schema = @Schema(type = SchemaType.STRING, format = "date-time")) @QueryParam("to") String to) {
        String me = caller.username();
        int size = cursors.limit(limit);
        Instant fromAt = TimeUuids.sliceBound("from", from, null);
        Instant toAt = TimeUuids.sliceBound("to", to, null);
        if (fromAt != null && toAt != null && fromAt.isAfter(toAt)) {
            throw ProblemException.invalid("from", "must not be after to");
        }
        String scope = "history:" + id + ":" + from + ":" + to;
        Position position = cursors.decode(scope, cursor, Position.class).orElse(null);
        int newest = position != null ? position.bucket()
                : toAt != null ? Messages.SERIES.granularity().key(toAt) : Integer.MAX_VALUE;
        int oldest = fromAt != null ? Messages.SERIES.granularity().key(fromAt) : 0;
        UUID upper = TimeUuids.endOf(toAt != null ? toAt : TimeUuids.LATEST);
        UUID lower = TimeUuids.startOf(fromAt != null ? fromAt : TimeUuids.EARLIEST);
        return conversations.requireMember(id, me)
                // Every month listed holds a message; only the first (cursor) and the last (from) can hold
                // none of the slice, so size + 3 months fill a page of size + 1 rows.
                .chain(c -> buckets.newestFirst(Messages.SERIES, id.toString(), newest, oldest, size + 3))
                .chain(months -> walk(new Walk(id, months, 0, position, upper, lower, size + 1, new ArrayList<>())))
                .map(walk -> page(scope, walk, size));
    }

    /** Reads month after month until {@code wanted} rows are found or the months run out. */
    private Uni<Walk> walk(Walk walk) {
        if (walk.found().size() >= walk.wanted() || walk.next() >= walk.months().size()) {
            return Uni.createFrom().item(walk);
        }
        int month = walk.months().get(walk.next());
        int missing = walk.wanted() - walk.found().size();
        boolean continuing = walk.from() != null && walk.from().bucket() == month && walk.from().after() != null;
        Uni<List<Row>> rows = continuing
                ? cql.read(AFTER, 1, walk.conversationId(), month, walk.from().after(), walk.lower(), missing).map(Cql::rows)
                : cql.read(FROM_TOP, 1, walk.conversationId(), month, walk.upper(), walk.lower(), missing).map(Cql::rows);
        return rows.chain(found -> {
            found.forEach(row -> walk.found().add(Messages.view(row)));
            return walk(new Walk(walk.conversationId(), walk.months(), walk.next() + 1, walk.from(), walk.upper(),
                    walk.lower(), walk.wanted(), walk.found()));
        });
    }

    private Page<Messages.Message> page(String scope, Walk walk, int size) {
        List<Messages.Message> found = walk.found();
        if (found.size() > size) {
            Messages.Message last = found.get(size - 1);
            UUID lastId = UUID.fromString(last.id());
            return Page.of(List.copyOf(found.subList(0, size)),
                    cursors.encode(scope, new Position(Messages.bucket(lastId), lastId)));
        }
        if (walk.months().size() < walk.wanted() + 2) {
            return Page.of(List.copyOf(found), null); // every month of the slice was read
        }
        // Months empty in the slice left the page short, and older months may exist: go on there.
        int resume = Messages.SERIES.granularity().previous(walk.months().get(walk.months().size() - 1));
        return Page.of(List.copyOf(found), cursors.encode(scope, new Position(resume, null)));
    }
}
