package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.cassandra.PagingStates;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.List;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /messages?sender=: a sender's messages that the caller may read: ones sent to the caller (they
 * were among the recipients) or by the caller, in conversations the caller is still a member of.
 *
 * <p>Seed 000 (cql/SEEDS.md) answers "messages by sender" with a secondary index. Here two SAI indexes of
 * messages_by_conversation (sender, and the values of recipients) answer {@code sender = ? AND
 * recipients CONTAINS ?} together, so the index does the filtering. The query names no partition:
 * it is a scatter-gather over the token ring (every node's local index is asked, in rounds, until
 * the page is full), the one read of the messenger whose cost grows with the cluster. Membership
 * comes from the caller's {@link MembershipSet}. X-Partitions-Read counts its partitions and the
 * partitions the index returned rows from; the nodes asked are not partitions.
 *
 * <p>The cursor carries the driver's paging state of the index query, but Cassandra only ever gets
 * one the service rebuilt from a conversation id, a month and a message timeuuid
 * ({@link PagingStates}): a paging state Cassandra cannot read would close the connection that every
 * other request shares.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/messages")
@Tag(name = "messenger")
@Authenticated
public class MessagesBySender {

    @Inject
    Caller caller;

    @Inject
    Messages messages;

    @Inject
    Cursors cursors;

    @Inject
    MembershipSet memberships;

    /** The key of messages_by_conversation: (conversation_id uuid, bucket int), message_id timeuuid. */
    private static final PagingStates.Shape MESSAGE_KEY = new PagingStates.Shape(List.of(16, 4), List.of(16));

    /** The driver's paging state of the index query, where the next page starts. */
    @RegisterForReflection // read back from cursors by Jackson, also in a native image
    public record Position(
            @NotNull @Pattern(regexp = "[A-Za-z0-9+/]{4,2000}={0,2}")
            String pagingState) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Messages of one sender that the caller may read",
            description = "Messages the sender sent to the caller (or the caller's own, when sender is the caller), in "
                    + "conversations the caller is still a member of. Found through SAI indexes on sender and recipients: "
                    + "a scatter-gather over every node, not a one-partition read. Ordered by conversation and month "
                    + "(token order), newest first within each. A page can hold fewer than limit items when some rows "
                    + "belong to conversations the caller has left; follow next until it is null.")
    public Uni<Page<Message>> bySender(
            @Parameter(description = "Username of the sender", example = "bob", required = true)
                    @Pattern(regexp = Usernames.PATTERN, message = Usernames.MESSAGE)
                    @QueryParam("sender")
                    String sender,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor) {
        String me = caller.username();
        if (sender == null) { // @Pattern checks the rest, but lets an absent value through
            throw ProblemException.invalid("sender", "is required");
        }
        int size = cursors.limit(limit);
        String scope = "by-sender:" + me + ":" + sender;
        ByteBuffer start = cursors.decode(scope, cursor, Position.class)
                .map(p -> decode(p.pagingState()))
                .orElse(null);
        return memberships
                .conversations(me)
                .chain(memberOf -> messages.sentBy(sender, me, size, start).chain(page -> {
                    List<Message> items = page.messages().stream()
                            .filter(m -> memberOf.contains(UUID.fromString(m.conversationId())))
                            .toList();
                    if (page.next() == null) {
                        return Uni.createFrom().item(Page.of(items, null));
                    }
                    // Cassandra hands a paging state to every full page; look one row ahead so that the
                    // last page says so.
                    return messages.sentBy(sender, me, 1, page.next())
                            .map(probe -> Page.of(
                                    items,
                                    probe.messages().isEmpty()
                                            ? null
                                            : cursors.encode(
                                                    scope,
                                                    new Position(Base64.getEncoder()
                                                            .encodeToString(toBytes(own(page.next())))))));
                }));
    }

    /**
     * The paging state to send for a cursor's: read as a position of messages_by_conversation (a
     * message id that is a timeuuid) and written again by the service; 400 when it is not one.
     */
    static ByteBuffer decode(String state) {
        byte[] bytes;
        try {
            bytes = Base64.getDecoder().decode(state);
        } catch (IllegalArgumentException e) {
            throw ProblemException.badCursor(
                    "cursor is malformed; pass back the 'next' value of a previous page unchanged");
        }
        return PagingStates.read(ByteBuffer.wrap(bytes), MESSAGE_KEY)
                .filter(MessagesBySender::atATimeuuid)
                .map(PagingStates::write)
                .orElseThrow(() -> ProblemException.badCursor("cursor holds no position of this list"));
    }

    private static boolean atATimeuuid(PagingStates.State state) {
        ByteBuffer id = state.clustering().get(0).duplicate();
        return new UUID(id.getLong(), id.getLong()).version() == 1;
    }

    /** Cassandra's own paging state, checked to be one {@link #decode} takes back: a cursor that works. */
    private static ByteBuffer own(ByteBuffer state) {
        if (PagingStates.read(state, MESSAGE_KEY).isEmpty()) {
            throw new IllegalStateException("Cassandra's paging state of the index query is not a message position");
        }
        return state;
    }

    private static byte[] toBytes(ByteBuffer buffer) {
        ByteBuffer copy = buffer.duplicate();
        byte[] bytes = new byte[copy.remaining()];
        copy.get(bytes);
        return bytes;
    }
}
