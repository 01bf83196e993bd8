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
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /inbox: the view of seed 001 (cql/SEEDS.md) loaded on every page: each conversation of the caller with its last
 * message, unread count and first unread time. Reads one partition of inbox_by_user: the summary
 * rows (the handler sorts them by last activity, as the partition is bounded by the user's
 * conversations, at most 3,000), then, for the conversations of the page that got a message from
 * someone else after the caller's last mark-read, at most cap + 1 of their unread markers, oldest
 * first (cql/013_unread_window.cql): the count is exact up to the cap whatever the number unread.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/inbox")
@Tag(name = "messenger")
@Authenticated
public class Inbox {
    private static final Query SELECT = Cql.idempotent(
            "SELECT conversation_id, title, partner, direct, joined_at, last_message_id, last_sender, last_preview, "
                    + "last_unread_id, read_up_to FROM inbox_by_user WHERE username = ? AND kind = 0");
    /** The unread markers of one conversation after read_up_to, oldest first, at most the cap + 1. */
    private static final Query UNREAD = Cql.idempotent(
            "SELECT message_id FROM inbox_by_user WHERE username = ? AND kind = 1 AND conversation_id = ? "
                    + "AND message_id > ? ORDER BY kind DESC, conversation_id DESC, message_id ASC LIMIT ?");
    /** Below every timeuuid the service makes: "count from the start" when nothing was marked read. */
    private static final UUID NEVER_READ = TimeUuids.startOf(TimeUuids.EARLIEST);

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
            @Schema(description = "Messages from others the caller has not read: exact up to 999 "
                    + "(cql-patterns.messenger.unread-count-cap); 1000 means more than 999 (show \"999+\")",
                    examples = "2") long unreadCount,
            // A plain string schema: a nullable $ref to Instant is not nullable in OpenAPI 3.0.
            @Schema(description = "When the oldest unread message was sent; null when none is unread",
                    implementation = String.class, format = "date-time", nullable = true,
                    examples = "2025-06-01T10:14:02.500Z") Instant firstUnreadAt) {
    }

    /** The last entry of the previous page, in the order of the list. */
    @RegisterForReflection // read back from cursors by Jackson, also in a native image
    public record Position(@NotNull Instant lastAt,
            @NotNull @Pattern(regexp = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}") String conversationId) {

        /** True when an entry at {@code at} with {@code id} comes after this position: older, or as old with a greater id. */
        boolean isBefore(Instant at, String id) {
            int byTime = at.compareTo(lastAt);
            return byTime < 0 || byTime == 0 && id.compareTo(conversationId) > 0;
        }
    }

    private static final Comparator<Summary> MOST_RECENT_FIRST = Comparator.comparing(Summary::lastAt).reversed()
            .thenComparing(s -> s.id().toString());

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The caller's conversations, most recent activity first, with unread counts",
            description = "The caller's inbox partition only: its summaries in one statement, then one statement per "
                    + "conversation of the page with messages after the caller's last mark-read, reading at most 1,000 "
                    + "of its unread markers (X-Statements and X-Partitions-Read: 1 plus those).")
    public Uni<Page<InboxEntry>> inbox(
            @Parameter(description = "Page size, 1 to 500 (default 50)", example = "50") @QueryParam("limit") Integer limit,
            @Parameter(description = "The next value of the previous page") @QueryParam("cursor") String cursor) {
        String me = caller.username();
        int size = cursors.limit(limit);
        String scope = "inbox:" + me;
        Position after = cursors.decode(scope, cursor, Position.class).orElse(null);
        // Every summary in one page: the partition is bounded by the user's conversations.
        int pageSize = settings.maxInboxConversations() + 100;
        return cql.read(SELECT, b -> b.setPageSize(pageSize), me)
                .chain(rs -> all(rs, new ArrayList<>()))
                .chain(rows -> {
                    List<Summary> summaries = summaries(rows);
                    List<Summary> rest = after == null ? summaries
                            : summaries.stream().filter(e -> after.isBefore(e.lastAt(), e.id().toString())).toList();
                    List<Summary> page = List.copyOf(rest.subList(0, Math.min(size, rest.size())));
                    String next = null;
                    if (rest.size() > size) {
                        Summary last = page.get(size - 1);
                        next = cursors.encode(scope, new Position(last.lastAt(), last.id().toString()));
                    }
                    String cursorOut = next;
                    return withUnread(me, page).map(entries -> Page.of(entries, cursorOut));
                });
    }

    /** A summary row of a conversation the caller is in, before its unread count is known. */
    private record Summary(UUID id, Row row, Instant lastAt) {
        /** Markers may exist only when a message from someone else came after the last mark-read. */
        boolean mayHaveUnread(String me) {
            UUID lastUnread = row.getUuid("last_unread_id");
            UUID readUpTo = row.getUuid("read_up_to");
            if (lastUnread == null) {
                // Rows last written before cql/013: count when the last message came from someone else.
                return readUpTo == null && row.getString("last_sender") != null && !me.equals(row.getString("last_sender"));
            }
            return readUpTo == null || lastUnread.timestamp() > readUpTo.timestamp();
        }
    }

    /** The page's entries with their unread counts: one capped read of markers per conversation that may have some. */
    private Uni<List<InboxEntry>> withUnread(String me, List<Summary> page) {
        if (page.isEmpty()) {
            return Uni.createFrom().item(List.of());
        }
        int cap = settings.unreadCountCap();
        List<Uni<InboxEntry>> entries = page.stream().map(s -> {
            if (!s.mayHaveUnread(me)) {
                return Uni.createFrom().item(entry(s, 0, null));
            }
            UUID readUpTo = s.row().getUuid("read_up_to");
            return cql.read(UNREAD, me, s.id(), readUpTo == null ? NEVER_READ : readUpTo, cap + 1).map(rs -> {
                List<Row> markers = Cql.rows(rs);
                return entry(s, markers.size(), markers.isEmpty() ? null : TimeUuids.instant(markers.get(0).getUuid(0)));
            });
        }).toList();
        return Uni.join().all(entries).andFailFast();
    }

    /** Further pages of the same partition, should it hold more groups than one page (a cap raised). */
    private Uni<List<Row>> all(AsyncResultSet rs, List<Row> rows) {
        rows.addAll(Cql.rows(rs));
        if (!rs.hasMorePages()) {
            return Uni.createFrom().item(rows);
        }
        return cql.call(0, rs::fetchNextPage).chain(next -> all(next, rows));
    }

    /** The summaries of conversations the caller is in, most recent activity first. */
    private static List<Summary> summaries(List<Row> rows) {
        List<Summary> summaries = new ArrayList<>();
        for (Row s : rows) {
            if (InboxRows.isMember(s)) {
                UUID lastId = s.getUuid("last_message_id");
                summaries.add(new Summary(s.getUuid("conversation_id"), s,
                        lastId == null ? s.getInstant("joined_at") : TimeUuids.instant(lastId)));
            }
        }
        summaries.sort(MOST_RECENT_FIRST);
        return summaries;
    }

    private static InboxEntry entry(Summary summary, long unread, Instant firstUnread) {
        Row s = summary.row();
        UUID lastId = s.getUuid("last_message_id");
        return new InboxEntry(summary.id().toString(), s.getBoolean("direct") ? "direct" : "group", s.getString("title"),
                s.getString("partner"), s.getString("last_preview"), lastId == null ? null : lastId.toString(),
                summary.lastAt(), s.getString("last_sender"), unread, firstUnread);
    }
}
