package dev.cqlpatterns.pastebin;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cqlpatterns.platform.http.Text;
import java.time.Instant;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A paste as GET and PUT answer it: never with its secret. */
@Schema(name = "Paste", description = "A paste, without its secret")
public record Paste(
        @Schema(examples = "5d1f0c36-0b89-4c6b-9b0e-6f8a3f0d2f4e")
        UUID id,

        @Schema(nullable = true, maxLength = 200, pattern = Text.SINGLE_LINE, examples = "nginx config")
        String title,

        @Schema(
                maxLength = PasteRules.BODY_MAX_CHARACTERS,
                pattern = Text.FREE_TEXT,
                examples = "server { listen 80; }")
        String body,

        @JsonProperty("private") @Schema(description = "Private pastes are readable by id only and never listed")
        boolean isPrivate,

        @Schema(examples = "2026-01-31T23:59:59.123Z") Instant createdAt,
        @Schema(examples = "2026-02-01T08:00:00Z") Instant modifiedAt,

        @Schema(
                implementation = String.class,
                format = "date-time",
                nullable = true,
                description = "When the paste disappears; null when it never expires",
                examples = "2026-02-07T23:59:59.123Z")
        Instant expiresAt) {}
