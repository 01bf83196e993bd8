package dev.cqlpatterns.messenger;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import jakarta.validation.constraints.Min;

/** Limits and bounds of the messenger; each one is named in a table of docs/tables.md. */
@ConfigMapping(prefix = "cql-patterns.messenger")
public interface MessengerSettings {

    /** Longest message, in characters (Unicode code points). */
    @WithDefault("4000")
    int maxContentLength();

    /** Most attachments on one message. */
    @WithDefault("10")
    int maxAttachments();

    /** Longest attachment URL, in characters. */
    @WithDefault("2000")
    int maxAttachmentUrlLength();

    /** Longest attachment name, in characters. */
    @WithDefault("200")
    int maxAttachmentNameLength();

    /** Longest conversation title, in characters. */
    @WithDefault("100")
    int maxTitleLength();

    /** Most characters of the inbox preview, the "…" of a cut message included (at least 2). */
    @WithDefault("100")
    @Min(2)
    int previewLength();

    /** Most members of a conversation (creator included). */
    @WithDefault("50")
    int maxMembers();

    /** Most conversations one user started themselves (conversation_memberships_by_user.added_by). */
    @WithDefault("1000")
    int maxConversationsPerUser();

    /** Most conversations others put one user in: a separate bound, so others never use up the own cap. */
    @WithDefault("2000")
    int maxAddedConversationsPerUser();

    /** Most conversations in one inbox, both bounds together: bounds the inbox partition. */
    default int maxInboxConversations() {
        return maxConversationsPerUser() + maxAddedConversationsPerUser();
    }

    /** Most unread messages one mark-read appends the caller to seenBy of (the newest ones). */
    @WithDefault("500")
    int markReadMaxMessages();

    /**
     * Unread counts in the inbox are answered exactly up to this; above it the inbox says cap + 1
     * ("99+", the badge most messengers show). Only what is shown: the count itself (others_sent -
     * others_read) is exact and costs the same at any number.
     */
    @WithDefault("99")
    @Min(1)
    int unreadCountCap();
}
