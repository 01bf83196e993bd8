package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.CqlTypes;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.time.WriteTimestamps;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The conversations table: who is in a conversation, read by every conversation route to decide
 * whether the caller may see it at all.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class Conversations {
    /** Usernames as bin/token mints them; no ':' so "smaller:bigger" names one pair only. */
    static final Pattern USERNAME = Pattern.compile(Usernames.PATTERN);

    private static final Query SELECT = Cql.idempotent("SELECT id, members, title, direct, created_by, created_at, "
            + "last_message_id, members_changed FROM conversations WHERE id = ?");
    // Conditional (Cql.conditional), settled by CompareAndSet: the row holding this request's creator
    // and creation time is this create's, whatever Cassandra answered.
    private static final Query INSERT_DIRECT = Cql.conditional(
            "INSERT INTO conversations (id, members, title, direct, created_by, created_at) VALUES (?, ?, ?, true, ?, ?) "
                    + "IF NOT EXISTS");
    private static final Query INSERT_GROUP = Cql.idempotent(
            "INSERT INTO conversations (id, members, title, direct, created_by, created_at) VALUES (?, ?, ?, false, ?, ?) "
                    + "USING TIMESTAMP ?");
    /** JoinConversation and LeaveConversation, at the change's {@link Conversation#changeTime} (members_changed). */
    private static final Query ADD_MEMBER = Cql.idempotent(
            "UPDATE conversations USING TIMESTAMP ? SET members = members + ?, members_changed = ? WHERE id = ?");

    private static final Query REMOVE_MEMBER = Cql.idempotent(
            "UPDATE conversations USING TIMESTAMP ? SET members = members - ?, members_changed = ? WHERE id = ?");
    /** The newest message of the conversation, so the next send knows which activity rows it replaces. */
    private static final Query SET_LAST_MESSAGE =
            Cql.idempotent("UPDATE conversations USING TIMESTAMP ? SET last_message_id = ? WHERE id = ?");

    @Inject
    Cql cql;

    @Inject
    CompareAndSet cas;

    /**
     * A row of conversations. lastMessageId: the newest message sent, after which the next message's
     * time falls (message_positions orders them exactly); null before any message. membersChanged
     * (members_changed): the time of the newest join or leave; null before any, or where not read.
     */
    public record Conversation(
            UUID id,
            Set<String> members,
            String title,
            boolean direct,
            String createdBy,
            Instant createdAt,
            UUID lastMessageId,
            Instant membersChanged) {

        Conversation(UUID id, Set<String> members, String title, boolean direct, String createdBy, Instant createdAt) {
            this(id, members, title, direct, createdBy, createdAt, null, null);
        }

        /**
         * The time of a change written now: this replica's clock, or the millisecond after the newest
         * change of the members when that is later (this replica's clock is behind the one that made
         * it). A join, a leave and the sends after them then land in the order they were made, whatever
         * the replicas' clocks: a later leave's tombstones are newer than the join they undo, and a
         * re-join's rows newer than the leave before it.
         */
        Instant changeTime(Instant now) {
            return after(now, membersChanged != null ? membersChanged : createdAt);
        }

        /** {@code now}, or the millisecond after {@code earlier} (null: none) where that is later. */
        static Instant after(Instant now, Instant earlier) {
            if (earlier == null) {
                return now;
            }
            Instant next = earlier.truncatedTo(ChronoUnit.MILLIS).plusMillis(1);
            return now.isBefore(next) ? next : now;
        }

        static Conversation of(Row row) {
            Set<String> members = row.get("members", CqlTypes.SET_OF_TEXT);
            // The row a failed IF NOT EXISTS sends back has every column; check anyway.
            UUID lastMessageId =
                    row.getColumnDefinitions().contains("last_message_id") ? row.getUuid("last_message_id") : null;
            Instant membersChanged =
                    row.getColumnDefinitions().contains("members_changed") && !row.isNull("members_changed")
                            ? row.getInstant("members_changed")
                            : null;
            return new Conversation(
                    row.getUuid("id"),
                    members == null ? Set.of() : Set.copyOf(members),
                    row.getString("title"),
                    row.getBoolean("direct"),
                    row.getString("created_by"),
                    row.getInstant("created_at"),
                    lastMessageId,
                    membersChanged);
        }

        /**
         * Whether this is the row a create by {@code createdBy} proposed at {@code at}: its creator and
         * creation time (the plan's, kept with an Idempotency-Key, so a retry of the same request finds
         * its own create). A replica plans each millisecond once; two replicas planning creates of one
         * pair by one caller in the same millisecond would both take the row as theirs.
         */
        boolean isCreate(String createdBy, Instant at) {
            return this.createdBy.equals(createdBy) && createdAt.equals(at);
        }

        boolean hasMember(String username) {
            return members.contains(username);
        }

        /** The other member of a 1:1 conversation, as seen by {@code username}. */
        public String partnerOf(String username) {
            return direct
                    ? members.stream()
                            .filter(m -> !m.equals(username))
                            .findFirst()
                            .orElse(username)
                    : null;
        }

        View view() {
            return new View(
                    id.toString(),
                    direct ? "direct" : "group",
                    members.stream().sorted().toList(),
                    title,
                    createdBy,
                    createdAt);
        }
    }

    @Schema(name = "Conversation")
    public record View(
            @Schema(format = "uuid", examples = "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b")
            String id,

            @Schema(
                    description = "direct: exactly two members, id derived from the pair, members fixed; group: "
                            + "random id, members join and leave",
                    enumeration = {"direct", "group"})
            String kind,

            @Schema(
                    type = SchemaType.ARRAY,
                    implementation = Usernames.Answered.class,
                    description = "Current members, sorted",
                    examples = "[\"alice\", \"bob\"]")
            List<String> members,

            @Schema(
                    description = "Optional title",
                    nullable = true,
                    maxLength = 100,
                    pattern = Text.SINGLE_LINE,
                    examples = "Weekend trip")
            String title,

            @Schema(pattern = Usernames.ANSWERED, examples = "alice")
            String createdBy,

            @Schema(examples = "2025-06-01T10:15:30.123Z") Instant createdAt) {}

    /** The conversation, if it exists. One partition read. */
    Uni<Optional<Conversation>> find(UUID id) {
        return cql.read(SELECT, id).map(rs -> Optional.ofNullable(rs.one()).map(Conversation::of));
    }

    /** The conversation as of every acknowledged conditional write (a serial read); one partition. */
    Uni<Optional<Conversation>> findLatest(UUID id) {
        return cql.read(SELECT, cql.serially(), id)
                .map(rs -> Optional.ofNullable(rs.one()).map(Conversation::of));
    }

    /** The conversation when {@code username} is a member; 404 otherwise, whether it exists or not. */
    Uni<Conversation> requireMember(UUID id, String username) {
        return find(id).map(found -> found.filter(c -> c.hasMember(username)).orElseThrow(() -> notFound(id)));
    }

    /**
     * Creates the 1:1 conversation {@code c} unless its pair has one (IF NOT EXISTS). Applied when the
     * row holding {@code c}'s creator and creation time is there, however Cassandra answered; not
     * applied, Cassandra's answer holds the row that won, when it sent one.
     */
    Uni<CompareAndSet.Outcome> insertDirect(Conversation c) {
        return cas.conditional(
                "conversations",
                cql.write(INSERT_DIRECT, c.id(), c.members(), c.title(), c.createdBy(), c.createdAt()),
                () -> findLatest(c.id())
                        .map(held -> held.filter(row -> row.isCreate(c.createdBy(), c.createdAt()))
                                .isPresent()));
    }

    /** Writes the group conversation {@code c}, with its creation time as write timestamp: a retry writes the same. */
    Uni<Void> insertGroup(Conversation c) {
        return cql.write(
                        INSERT_GROUP,
                        c.id(),
                        c.members(),
                        c.title(),
                        c.createdBy(),
                        c.createdAt(),
                        WriteTimestamps.micros(c.createdAt()))
                .replaceWithVoid();
    }

    /** {@code username} joins the conversation at {@code at}, the change's time ({@link Conversation#changeTime}). */
    Uni<Void> addMember(UUID id, String username, Instant at) {
        return cql.write(ADD_MEMBER, WriteTimestamps.micros(at), Set.of(username), at, id)
                .replaceWithVoid();
    }

    /** {@code username} leaves the conversation at {@code at}, the change's time ({@link Conversation#changeTime}). */
    Uni<Void> removeMember(UUID id, String username, Instant at) {
        return cql.write(REMOVE_MEMBER, WriteTimestamps.micros(at), Set.of(username), at, id)
                .replaceWithVoid();
    }

    /** Names {@code messageId} as the conversation's newest message, at the message's own time. */
    Uni<Void> setLastMessage(UUID id, UUID messageId) {
        return cql.write(SET_LAST_MESSAGE, WriteTimestamps.micros(messageId), messageId, id)
                .replaceWithVoid();
    }

    static ProblemException notFound(UUID id) {
        return ProblemException.notFound("No conversation " + id + " that you are a member of");
    }

    /** The row key of seed 001 (cql/SEEDS.md), "$smaller:$bigger" as a name-based uuid: the same pair, the same id. */
    public static UUID directId(String one, String other) {
        String smaller = one.compareTo(other) <= 0 ? one : other;
        String bigger = one.compareTo(other) <= 0 ? other : one;
        return UUID.nameUUIDFromBytes((smaller + ":" + bigger).getBytes(StandardCharsets.UTF_8));
    }

    static String requireUsername(String field, String value) {
        if (value == null || !USERNAME.matcher(value).matches()) {
            throw ProblemException.invalid(field, Usernames.MESSAGE);
        }
        return value;
    }
}
