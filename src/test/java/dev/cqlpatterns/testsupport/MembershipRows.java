package dev.cqlpatterns.testsupport;

import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * A user's row of a conversation in conversation_memberships_by_user (cql/056_membership_sets.cql),
 * in the generation readers read: what a create or join writes beside the inbox summary, and what
 * the caps count.
 */
public final class MembershipRows {
    private static final String SET = "conversation_memberships_by_user";

    private MembershipRows() {}

    /** Writes the row as a create or join that got that far does, at {@code at} and with its write time. */
    public static void write(StoredRows stored, String username, UUID conversation, String addedBy, Instant at) {
        stored.execute(
                "INSERT INTO " + SET + " (username, generation, conversation_id, added_by, joined_at) "
                        + "VALUES (?, ?, ?, ?, ?) USING TIMESTAMP " + ChronoUnit.MICROS.between(Instant.EPOCH, at),
                username,
                SetGenerations.current(stored, SET, username),
                conversation,
                addedBy,
                at);
    }

    /** Deletes the row, as a leave that got that far does. */
    public static void delete(StoredRows stored, String username, UUID conversation) {
        stored.execute(
                "DELETE FROM " + SET + " WHERE username = ? AND generation = ? AND conversation_id = ?",
                username,
                SetGenerations.current(stored, SET, username),
                conversation);
    }

    /** Who put the user in the conversation, by the row: empty when there is no row or they created it. */
    public static List<String> addedBy(StoredRows stored, String username, UUID conversation) {
        return stored
                .execute(
                        "SELECT added_by FROM " + SET
                                + " WHERE username = ? AND generation = ? AND conversation_id = ?",
                        username,
                        SetGenerations.current(stored, SET, username),
                        conversation)
                .stream()
                .map(row -> row.getString("added_by"))
                .filter(Objects::nonNull)
                .toList();
    }
}
