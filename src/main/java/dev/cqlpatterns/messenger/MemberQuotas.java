package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.identity.SignedUpUsers;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/**
 * Who may be put into a conversation (conversation_memberships_by_user): signed-up users only, each with room
 * under the cap the membership is charged to, counted in the user's {@link MembershipSet}. A conversation
 * someone creates is charged to their own cap; one they are put in by someone else to their separate "added
 * by others" bound, so a third party can never use up a user's own cap.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class MemberQuotas {
    @Inject
    SignedUpUsers users;

    @Inject
    MessengerSettings settings;

    @Inject
    MembershipSet memberships;

    /**
     * Fails unless every one of {@code members} is a signed-up user (404 naming the first unknown, or 400 on
     * {@code fields}' name when given) with room: {@code actor} under their own cap, every other member under
     * their "added by others" bound (409 naming them). The user read, then the member's set (its fill,
     * generation and counts: three one-partition reads).
     */
    Uni<Void> admit(String actor, List<String> members, Map<String, String> fields) {
        List<Uni<Void>> checks = members.stream()
                .map(m -> requireUser(m, fields.get(m))
                        .chain(() -> m.equals(actor) ? requireOwnRoom(m) : requireAddedRoom(m)))
                .toList();
        return checks.isEmpty()
                ? Uni.createFrom().voidItem()
                : Uni.join().all(checks).andFailFast().replaceWithVoid();
    }

    /**
     * Fails unless {@code member}, whom {@code actor} puts into the existing conversation {@code
     * conversationId}, is a signed-up user with room under their "added by others" bound, not counting this
     * conversation: a join that stopped after writing the membership (conversation_memberships_by_user) is
     * finished by the retry, even when that membership fills the bound.
     */
    Uni<Void> admitInto(UUID conversationId, String member) {
        return requireUser(member, null)
                .chain(() -> memberships.counts(member, conversationId))
                .invoke(counts -> requireAddedRoom(member, counts.added()))
                .replaceWithVoid();
    }

    private Uni<Void> requireUser(String username, String field) {
        return users.exists(username)
                .invoke(exists -> {
                    if (!exists) {
                        String message = "no signed-up user is named " + username;
                        throw field == null
                                ? ProblemException.notFound("No user " + username + ": " + message)
                                : ProblemException.invalid(field, message);
                    }
                })
                .replaceWithVoid();
    }

    private Uni<Void> requireOwnRoom(String username) {
        return memberships
                .counts(username, null)
                .invoke(counts -> {
                    if (counts.own() >= settings.maxConversationsPerUser()) {
                        throw ProblemException.conflict("You already started " + counts.own()
                                + " conversations, the most allowed; leave some first");
                    }
                })
                .replaceWithVoid();
    }

    private Uni<Void> requireAddedRoom(String username) {
        return memberships
                .counts(username, null)
                .invoke(counts -> requireAddedRoom(username, counts.added()))
                .replaceWithVoid();
    }

    private void requireAddedRoom(String username, long added) {
        if (added >= settings.maxAddedConversationsPerUser()) {
            throw ProblemException.conflict(
                    username + " was already put in " + added + " conversations by others, the most allowed");
        }
    }
}
