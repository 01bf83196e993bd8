package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Usernames;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A message as the API answers it: a row of messages_by_conversation, read by {@link Messages#view}. */
@Schema(name = "Message")
public record Message(
        @Schema(
                format = "uuid",
                description = "timeuuid of the message; its time is sentAt",
                examples = "5c1f0a10-3e8b-11f0-9a0b-8d3c6f1e2a4b")
        String id,

        @Schema(format = "uuid", examples = "5b3e2a44-9c0d-3f4e-8b1a-2c7d9e0f1a2b")
        String conversationId,

        @Schema(examples = "2025-06-01T10:15:30.123Z") Instant sentAt,

        @Schema(pattern = Usernames.ANSWERED, examples = "alice")
        String sender,

        @Schema(maxLength = 4000, pattern = Text.FREE_TEXT_NOT_BLANK, examples = "Where are you?")
        String content,

        @Schema(
                type = SchemaType.ARRAY,
                implementation = Usernames.Answered.class,
                description = "Members it was sent to (everyone but the sender at send time), sorted",
                examples = "[\"bob\"]")
        List<String> recipients,

        @Schema(
                description = "name -> http(s) URL",
                additionalProperties = AttachmentUrl.class,
                examples = "{\"map.png\": \"https://example.com/map.png\"}")
        Map<String, String> attachments,

        @Schema(
                type = SchemaType.ARRAY,
                implementation = Usernames.Answered.class,
                description = "Who has read it, in the order they read it",
                examples = "[\"bob\"]")
        List<String> seenBy) {}
