package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Caller;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.net.URI;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * POST /conversations: starts a conversation. Two members (the caller and one other) make a 1:1
 * conversation whose id comes from the ordered pair (seed 001), created with IF NOT EXISTS so
 * concurrent creates agree; creating it again answers 200 with the same conversation. More
 * members make a group with a random id. Every member gets a summary row in their inbox.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@Path("/conversations")
@Tag(name = "messenger")
@Authenticated
public class CreateConversation {
    private static final Query INSERT_DIRECT = Cql.query(
            "INSERT INTO conversations (id, members, title, direct, created_by, created_at) VALUES (?, ?, ?, true, ?, ?) "
                    + "IF NOT EXISTS");
    private static final Query INSERT_GROUP = Cql.idempotent(
            "INSERT INTO conversations (id, members, title, direct, created_by, created_at) VALUES (?, ?, ?, false, ?, ?)");

    @Inject
    Caller caller;

    @Inject
    Cql cql;

    @Inject
    Clock clock;

    @Inject
    Conversations conversations;

    @Inject
    InboxRows inbox;

    @Inject
    MessengerSettings settings;

    @Schema(name = "NewConversation")
    public record Request(
            @NotNull @Schema(description = "Usernames to talk with; the caller is added. The caller and one other "
                    + "make a 1:1 (direct) conversation", examples = "[\"bob\"]", required = true) List<String> members,
            @Schema(description = "Optional title, at most 100 characters", nullable = true, maxLength = 100,
                    examples = "Weekend trip") String title) {
    }

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "Start a conversation (the caller is always a member)",
            description = "Exactly two members (the caller and one other) make a 1:1 conversation whose id is derived "
                    + "from the ordered pair: creating it again answers 200 with the existing conversation (its title "
                    + "is the first creator's). Otherwise a group with a new id. Each new member must be in fewer than "
                    + "1,000 conversations (409).")
    @APIResponse(responseCode = "201", description = "Created",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Conversations.View.class)))
    @APIResponse(responseCode = "200", description = "The 1:1 conversation of this pair already existed",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Conversations.View.class)))
    @APIResponse(responseCode = "409", description = "A member is already in the most conversations allowed",
            content = @Content(mediaType = "application/problem+json", schema = @Schema(ref = "Problem")))
    public Uni<RestResponse<Conversations.View>> create(@Valid @NotNull Request request) {
        String me = caller.username();
        Set<String> members = new TreeSet<>();
        members.add(Conversations.requireUsername("caller", me));
        for (int i = 0; i < request.members().size(); i++) {
            members.add(Conversations.requireUsername("members[" + i + "]", request.members().get(i)));
        }
        if (members.size() < 2) {
            throw ProblemException.invalid("members", "must name at least one user other than you");
        }
        if (members.size() > settings.maxMembers()) {
            throw ProblemException.invalid("members", "at most " + settings.maxMembers() + " members, you included");
        }
        // control characters are refused before stripping: "\tTrip\n" is not "Trip"
        if (request.title() != null && !Text.isSingleLine(request.title())) {
            throw ProblemException.invalid("title", Text.SINGLE_LINE_MESSAGE);
        }
        String title = request.title() == null || request.title().isBlank() ? null : request.title().strip();
        if (title != null && title.codePointCount(0, title.length()) > settings.maxTitleLength()) {
            throw ProblemException.invalid("title", "at most " + settings.maxTitleLength() + " characters");
        }
        Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        return members.size() == 2 ? direct(me, members, title, now) : group(me, members, title, now);
    }

    private Uni<RestResponse<Conversations.View>> direct(String me, Set<String> members, String title, Instant now) {
        List<String> pair = List.copyOf(members);
        UUID id = Conversations.directId(pair.get(0), pair.get(1));
        return conversations.find(id).chain(existing -> {
            if (existing.isPresent()) {
                return settle(existing.get(), false);
            }
            return inbox.requireRoom(members)
                    .chain(() -> cql.bind(INSERT_DIRECT, id, members, title, me, now))
                    // A conditional write reads the partition it writes.
                    .chain(insert -> cql.execute(insert, 1))
                    .chain(rs -> {
                        boolean created = rs.wasApplied();
                        Conversations.Conversation c = created
                                ? new Conversations.Conversation(id, members, title, true, me, now)
                                : Conversations.Conversation.of(rs.one()); // the winner of a concurrent create
                        return settle(c, created);
                    });
        });
    }

    /**
     * Writes both summary rows of a 1:1 with the conversation's creation time as joined_at and as
     * write timestamp: the same bytes each time, so a repeated create also repairs a first one that
     * died between its conditional insert and these writes.
     */
    private Uni<RestResponse<Conversations.View>> settle(Conversations.Conversation c, boolean created) {
        List<Uni<BoundStatement>> summaries = c.members().stream().map(m -> inbox.summary(m, c, c.createdAt())).toList();
        return Uni.join().all(summaries).andFailFast()
                .chain(statements -> Uni.join().all(statements.stream().map(s -> cql.execute(s, 0)).toList()).andFailFast())
                .map(done -> created ? created(c) : RestResponse.ok(c.view()));
    }

    private Uni<RestResponse<Conversations.View>> group(String me, Set<String> members, String title, Instant now) {
        Conversations.Conversation c = new Conversations.Conversation(UUID.randomUUID(), members, title, false, me, now);
        // One logged batch: the conversation and every member's summary land together or not at
        // all. With at most 50 members and 100-character titles it stays below Cassandra's batch
        // size limit (50 KB by default): about 25 KB at worst, 2 KB for a group of ten.
        List<Uni<BoundStatement>> writes = new ArrayList<>();
        writes.add(cql.bind(INSERT_GROUP, c.id(), members, title, me, now));
        members.forEach(m -> writes.add(inbox.summary(m, c, now)));
        return inbox.requireRoom(members)
                .chain(() -> Uni.join().all(writes).andFailFast())
                .chain(cql::loggedBatch)
                .map(done -> created(c));
    }

    private static RestResponse<Conversations.View> created(Conversations.Conversation c) {
        return RestResponse.ResponseBuilder.<Conversations.View>created(URI.create("/conversations/" + c.id()))
                .entity(c.view()).build();
    }
}
