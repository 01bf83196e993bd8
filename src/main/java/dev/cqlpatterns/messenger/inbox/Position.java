package dev.cqlpatterns.messenger.inbox;

import io.quarkus.runtime.annotations.RegisterForReflection;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import java.time.Instant;

/** A place in the inbox's order: the last entry of the previous page, in the order of the list. */
@RegisterForReflection // read back from cursors by Jackson, also in a native image
public record Position(
        @NotNull Instant lastAt,

        @NotNull @Pattern(regexp = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
        String conversationId) {

    /**
     * True when an entry at {@code at} with {@code id} comes after this position: older, or as old
     * with a smaller id (the order of the list).
     */
    boolean isBefore(Instant at, String id) {
        int byTime = at.compareTo(lastAt);
        return byTime < 0 || byTime == 0 && id.compareTo(conversationId) < 0;
    }
}
