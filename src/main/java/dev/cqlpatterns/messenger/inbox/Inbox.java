package dev.cqlpatterns.messenger.inbox;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.messenger.MessengerSettings;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /inbox: the view of seed 001 (cql/SEEDS.md) loaded on every page: each conversation of the caller with its last
 * message, unread count and first unread time, most recent activity first. The order comes from inbox_by_day
 * (inbox_by_day, {@link InboxByDay}), which repairs what it finds stale. The page's unread counts come from
 * {@link UnreadCounts}.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/inbox")
@Tag(name = "messenger")
@Authenticated
public class Inbox {
    @Inject
    Caller caller;

    @Inject
    Cql cql;

    @Inject
    Cursors cursors;

    @Inject
    MessengerSettings settings;

    @Inject
    InboxByDay byDay;

    @Inject
    UnreadCounts unread;

    @Schema(name = "InboxEntry")
    public record InboxEntry(
            @Schema(format = "uuid", examples = "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b")
            String conversationId,

            @Schema(enumeration = {"direct", "group"}) String kind,

            @Schema(
                    description = "Title of the conversation, if it has one",
                    nullable = true,
                    maxLength = 100,
                    pattern = Text.SINGLE_LINE,
                    examples = "Weekend trip")
            String title,

            @Schema(
                    pattern = Usernames.ANSWERED,
                    description = "The other member of a 1:1 conversation",
                    nullable = true,
                    examples = "bob")
            String partner,

            @Schema(
                    description = "The last message, stripped; one longer than 100 characters "
                            + "(cql-patterns.messenger.preview-length) is cut to its first 99 and \"…\"",
                    maxLength = 100,
                    pattern = Text.FREE_TEXT,
                    nullable = true,
                    examples = "Where are you?")
            String lastMessage,

            @Schema(format = "uuid", nullable = true, examples = "5c1f0a10-3e8b-11f0-9a0b-8d3c6f1e2a4b")
            String lastMessageId,

            @Schema(
                    description = "When the last message was sent; before any, when the caller joined",
                    examples = "2025-06-01T10:15:30.123Z")
            Instant lastAt,

            @Schema(pattern = Usernames.ANSWERED, nullable = true, examples = "bob")
            String lastSender,

            @Schema(
                    description = "Messages from others the caller has not read, counted exactly whatever their "
                            + "number and answered exactly up to 99 (cql-patterns.messenger.unread-count-cap); 100 "
                            + "means more than 99 (show \"99+\")",
                    examples = "2")
            long unreadCount,
            // A plain string schema: a nullable $ref to Instant is not nullable in OpenAPI 3.0.
            @Schema(
                    description = "When the oldest unread message was sent; null when none is unread",
                    implementation = String.class,
                    format = "date-time",
                    nullable = true,
                    examples = "2025-06-01T10:14:02.500Z")
            Instant firstUnreadAt) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "The caller's conversations, most recent activity first, with unread counts",
            description = "The caller's conversations in order of last activity from the inbox's index (a few "
                    + "statements a page: the index and the page's summaries, which hold the unread counts), then one "
                    + "statement per conversation of the page where more than its last message is unread, reading the first "
                    + "unread one. A "
                    + "caller's first read reads every summary instead (X-Statements and X-Partitions-Read say "
                    + "which).")
    public Uni<Page<InboxEntry>> inbox(@QueryParam("limit") Integer limit, @QueryParam("cursor") String cursor) {
        String me = caller.username();
        int size = cursors.limit(limit);
        String scope = "inbox:" + me;
        Position after = cursors.decode(scope, cursor, Position.class).orElse(null);
        return byDay.page(me, size, after).chain(page -> {
            List<Summary> shown =
                    page.found().subList(0, Math.min(size, page.found().size()));
            return unread.of(me, shown)
                    .map(counts -> Page.of(
                            shown.stream()
                                    .map(s -> entry(s, counts.getOrDefault(s.id(), UnreadCounts.Unread.NONE)))
                                    .toList(),
                            page.next() == null ? null : cursors.encode(scope, page.next())));
        });
    }

    private static InboxEntry entry(Summary summary, UnreadCounts.Unread unread) {
        Row s = summary.row();
        UUID lastId = s.getUuid("last_message_id");
        return new InboxEntry(
                summary.id().toString(),
                s.getBoolean("direct") ? "direct" : "group",
                s.getString("title"),
                s.getString("partner"),
                s.getString("last_preview"),
                lastId == null ? null : lastId.toString(),
                summary.lastAt(),
                s.getString("last_sender"),
                unread.count(),
                unread.first());
    }
}
