package dev.cqlpatterns.messenger;

import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Usernames;
import jakarta.validation.constraints.NotNull;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of POST /conversations ({@link CreateConversation}): the members besides the caller and an
 * optional title, checked further by {@link ConversationRules}.
 */
@Schema(name = "NewConversation")
public record NewConversation(
        @NotNull
        @Schema(
                type = SchemaType.ARRAY,
                implementation = Usernames.Username.class,
                description = "Usernames to talk with; the caller is added. The caller and one other "
                        + "make a 1:1 (direct) conversation",
                examples = "[\"bob\"]",
                required = true)
        List<String> members,

        @Schema(
                description = "Optional title, at most 100 characters",
                nullable = true,
                maxLength = 100,
                pattern = Text.SINGLE_LINE,
                examples = "Weekend trip")
        String title) {}
