package dev.cqlpatterns.messenger;

import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.NotNull;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
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
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /inbox: seed 001's view loaded on every page: each conversation of the caller with its last
 * message, unread count and first unread time. One statement on one partition of inbox_by_user:
 * Cassandra groups the rows per conversation (summary, and count and oldest of the unread markers),
 * and the handler sorts by last activity, as the partition is bounded by the user's conversations
 * (at most 1,000).
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/inbox")
@Tag(name = "messenger")
@Authenticated
public class Inbox {
    private static final Query SELECT = Cql.idempotent(
            "SELECT kind, conversation_id, title, partner, direct, joined_at, last_message_id, last_sender, last_preview, "
                    + "count(*) AS n, min(message_id) AS first FROM inbox_by_user WHERE username = ? "
                    + "GROUP BY kind, conversation_id");

    @Inject
    Caller caller;

    @Inject
    Cql cql;

    @Inject
    Cursors cursors;

    @Inject
    MessengerSettings settings;

    @Schema(name = "InboxEntry")
    public record InboxEntry(
            @Schema(format = "uuid", examples = "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b") String conversationId,
            @Schema(enumeration = { "direct", "group" }) String kind,
            @Schema(description = "Title of the conversation, if it has one", nullable = true, examples = "Weekend trip") String title,
            @Schema(description = "The other member of a 1:1 conversation", nullable = true, examples = "bob") String partner,
            @Schema(description = "The last message, stripped; one longer than 100 characters "
                    + "(cql-patterns.messenger.preview-length) is cut to its first 99 and \"…\"", maxLength = 100, nullable = true,
                    examples = "Where are you?") String lastMessage,
            @Schema(format = "uuid", nullable = true, examples = "5c1f0a10-3e8b-11f0-9a0b-8d3c6f1e2a4b") String lastMessageId,
            @Schema(description = "When the last message was sent; before any, when the caller joined",
                    examples = "2025-06-01T10:15:30.123Z") Instant lastAt,
            @Schema(nullable = true, examples = "bob") String lastSender,
            @Schema(description = "Messages from others the caller has not read", examples = "2") long unreadCount,
            // A plain string schema: a nullable $ref to Instant is not nullable in OpenAPI 3.0.
            @Schema(description = "When the oldest unread message was sent; null when none is unread",
                    implementation = String.class, format = "date-time", nullable = true,
                    examples = "2025-06-01T10:14:02.500Z") Instant firstUnreadAt) {
    }

    /** The last entry of the previous page, in the order of the list. */
    @RegisterForReflection // read back from cursors by Jackson, also in a native image
    public record Position(@NotNull Instant lastAt,
            @NotNull @Pattern(regexp = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}") String conversationId) {

        /** True when {@code e} comes after this position: older, or as old with a greater id. */
        boolean isBefore(InboxEntry e) {
            int byTime = e.lastAt().compareTo(lastAt);
            return byTime < 0 || byTime == 0 && e.conversationId().compareTo(conversationId) > 0;
        }
    }

    private static final Comparator<InboxEntry> MOST_RECENT_FIRST = Comparator.comparing(InboxEntry::lastAt).reversed()
            .thenComparing(InboxEntry::conversationId);

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The caller's conversations, most recent activity first, with unread counts",
            description = "One partition read (X-Partitions-Read: 1) whatever the page: the whole inbox of a user is one "
                    + "partition, bounded by the conversations they are in.")
    public Uni<Page<InboxEntry>> inbox(
            @Parameter(description = "Page size, 1 to 500 (default 50)", example = "50") @QueryParam("limit") Integer limit,
            @Parameter(description = "The next value of the previous page") @QueryParam("cursor") String cursor) {
        String me = caller.username();
        int size = cursors.limit(limit);
        String scope = "inbox:" + me;
        Position after = cursors.decode(scope, cursor, Position.class).orElse(null);
        // Enough groups for every conversation and its markers in one page: no second round trip.
        int pageSize = 2 * settings.maxInboxConversations() + 100;
        return cql.read(SELECT, 1, b -> b.setPageSize(pageSize), me)
                .chain(rs -> all(rs, new ArrayList<>()))
                .map(rows -> {
                    List<InboxEntry> entries = entries(rows);
                    List<InboxEntry> rest = after == null ? entries
                            : entries.stream().filter(e -> after.isBefore(e)).toList();
                    if (rest.size() <= size) {
                        return Page.of(rest, null);
                    }
                    InboxEntry last = rest.get(size - 1);
                    return Page.of(List.copyOf(rest.subList(0, size)),
                            cursors.encode(scope, new Position(last.lastAt(), last.conversationId())));
                });
    }

    /** Further pages of the same partition, should it hold more groups than one page (a cap raised). */
    private Uni<List<Row>> all(AsyncResultSet rs, List<Row> rows) {
        rows.addAll(Cql.rows(rs));
        if (!rs.hasMorePages()) {
            return Uni.createFrom().item(rows);
        }
        return cql.call(0, rs::fetchNextPage).chain(next -> all(next, rows));
    }

    private static List<InboxEntry> entries(List<Row> rows) {
        Map<UUID, Row> summaries = new HashMap<>();
        Map<UUID, Row> unread = new HashMap<>();
        for (Row row : rows) {
            (row.getByte("kind") == 0 ? summaries : unread).put(row.getUuid("conversation_id"), row);
        }
        List<InboxEntry> entries = new ArrayList<>();
        summaries.forEach((id, s) -> {
            if (!InboxRows.isMember(s)) {
                return;
            }
            UUID lastId = s.getUuid("last_message_id");
            Row u = unread.get(id);
            entries.add(new InboxEntry(id.toString(), s.getBoolean("direct") ? "direct" : "group", s.getString("title"),
                    s.getString("partner"), s.getString("last_preview"), lastId == null ? null : lastId.toString(),
                    lastId == null ? s.getInstant("joined_at") : TimeUuids.instant(lastId), s.getString("last_sender"),
                    u == null ? 0 : u.getLong("n"), u == null ? null : TimeUuids.instant(u.getUuid("first"))));
        });
        entries.sort(MOST_RECENT_FIRST);
        return entries;
    }
}
