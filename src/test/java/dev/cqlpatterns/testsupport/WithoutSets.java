package dev.cqlpatterns.testsupport;

import java.time.Instant;
import java.util.UUID;

/** Memberships as a release without the membership sets (cql/056_membership_sets.cql) stored them. */
public final class WithoutSets {
    private WithoutSets() {}

    /** {@code adder} put {@code username} in conversation {@code id} at {@code at}, in the inbox only. */
    public static void conversationMembership(StoredRows stored, String username, UUID id, String adder, Instant at) {
        stored.execute(
                "INSERT INTO inbox_by_user (username, kind, conversation_id, message_id, joined_at) "
                        + "VALUES (?, 0, ?, 00000000-0000-1000-8000-000000000000, ?)",
                username,
                id,
                at);
        stored.execute(
                "INSERT INTO conversations_added_by_others (username, conversation_id, added_by, added_at) "
                        + "VALUES (?, ?, ?, ?)",
                username,
                id,
                adder,
                at);
    }
}
