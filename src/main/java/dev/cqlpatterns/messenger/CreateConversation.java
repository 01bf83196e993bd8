package dev.cqlpatterns.messenger;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
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
import java.util.HashMap;
import java.util.List;
import java.util.Map;
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
    MemberQuotas quotas;

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
                    + "is the first creator's). Otherwise a group with a new id. Every member must be a signed-up user (400 "
                    + "naming the field). Quotas: the conversation counts against the caller's own cap (1,000 "
                    + "conversations started; 409) and, for every other member, against that member's separate "
                    + "bound of conversations others put them in (2,000; 409 naming them), so nobody can use up "
                    + "another user's own cap.")
    @APIResponse(responseCode = "201", description = "Created", headers = @Header(name = "Location",
            description = "Path of the new conversation, /conversations/{id}",
            schema = @Schema(type = SchemaType.STRING, format = "uri-reference")),
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Conversations.View.class)))
    @APIResponse(responseCode = "200", description = "The 1:1 conversation of this pair already existed",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Conversations.View.class)))
    @APIResponse(responseCode = "409", description = "The caller started the most conversations allowed, or another "
            + "member was put in the most conversations by others allowed",
            content = @Content(mediaType = "application/problem+json", schema = @Schema(ref = "Problem")))
    public Uni<RestResponse<Conversations.View>> create(@Valid @NotNull Request request) {
        String me = caller.username();
        Set<String> members = new TreeSet<>();
        // Which field named each member, for a 400 that points at an unknown user.
        Map<String, String> fields = new HashMap<>();
        members.add(Conversations.requireUsername("caller", me));
        for (int i = 0; i < request.members().size(); i++) {
            String member = Conversations.requireUsername("members[" + i + "]", request.members().get(i));
            members.add(member);
            fields.putIfAbsent(member, "members[" + i + "]");
        }
        fields.put(me, "caller");
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
        Uni<Void> admitted = quotas.admit(me, List.copyOf(members), fields);
        return members.size() == 2 ? direct(me, members, title, now, admitted) : group(me, members, title, now, admitted);
    }

    private Uni<RestResponse<Conversations.View>> direct(String me, Set<String> members, String title, Instant now,
            Uni<Void> admitted) {
        List<String> pair = List.copyOf(members);
        UUID id = Conversations.directId(pair.get(0), pair.get(1));
        return conversations.find(id).chain(existing -> {
            if (existing.isPresent()) {
                return settle(existing.get(), false);
            }
            return admitted
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
     * Writes both summary rows of a 1:1, and the partner's "added by others" charge, with the
     * conversation's creation time as joined_at and as write timestamp: the same bytes each time,
     * so a repeated create also repairs a first one that died between its conditional insert and
     * these writes.
     */
    private Uni<RestResponse<Conversations.View>> settle(Conversations.Conversation c, boolean created) {
        List<Uni<BoundStatement>> writes = new ArrayList<>();
        c.members().forEach(m -> writes.addAll(memberRows(m, c, c.createdAt())));
        return Uni.join().all(writes).andFailFast()
                .chain(statements -> Uni.join().all(statements.stream().map(s -> cql.execute(s, 0)).toList()).andFailFast())
                .map(done -> created ? created(c) : RestResponse.ok(c.view()));
    }

    private Uni<RestResponse<Conversations.View>> group(String me, Set<String> members, String title, Instant now,
            Uni<Void> admitted) {
        Conversations.Conversation c = new Conversations.Conversation(UUID.randomUUID(), members, title, false, me, now);
        // One logged batch: the conversation and every member's summary land together or not at
        // all. With at most 50 members and 100-character titles it stays below Cassandra's batch
        // size limit (50 KB by default): about 30 KB at worst, 3 KB for a group of ten.
        List<Uni<BoundStatement>> writes = new ArrayList<>();
        writes.add(cql.bind(INSERT_GROUP, c.id(), members, title, me, now));
        members.forEach(m -> writes.addAll(memberRows(m, c, now)));
        return admitted
                .chain(() -> Uni.join().all(writes).andFailFast())
                .chain(cql::loggedBatch)
                .map(done -> created(c));
    }

    /** A member's summary, and the charge to their "added by others" bound unless they created it. */
    private List<Uni<BoundStatement>> memberRows(String member, Conversations.Conversation c, Instant at) {
        return member.equals(c.createdBy()) ? List.of(inbox.summary(member, c, at))
                : List.of(inbox.summary(member, c, at), inbox.addedBy(member, c.id(), c.createdBy(), at));
    }

    private static RestResponse<Conversations.View> created(Conversations.Conversation c) {
        return RestResponse.ResponseBuilder.<Conversations.View>created(URI.create("/conversations/" + c.id()))
                .entity(c.view()).build();
    }
}
