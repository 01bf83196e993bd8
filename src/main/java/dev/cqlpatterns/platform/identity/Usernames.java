package dev.cqlpatterns.platform.identity;

import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * What a username looks like, in every feature: a token's subject, a user, a member of a
 * conversation or a group. One rule, so a name one route accepts is never refused by another.
 */
public final class Usernames {
    public static final String PATTERN = "^[a-z0-9_.-]{3,32}$";
    public static final String MESSAGE = "must be 3 to 32 characters of a-z, 0-9, _ . -";
    /**
     * A username as answered: names taken before the one rule (the messenger and tokens took 1 to 64 of
     * the same characters) are still stored, and still answered.
     */
    public static final String ANSWERED = "^[a-z0-9_.-]{1,64}$";

    private Usernames() {}

    /** The contract's schema of one username, for lists of them ({@code @Schema(type = ARRAY, implementation = Username.class)}). */
    @Schema(name = "Username", type = SchemaType.STRING, pattern = PATTERN, maxLength = 32, examples = "alice")
    public static final class Username {
        private Username() {}
    }

    /** The contract's schema of a username in an answer ({@link #ANSWERED}). */
    @Schema(name = "AnsweredUsername", type = SchemaType.STRING, pattern = ANSWERED, maxLength = 64, examples = "alice")
    public static final class Answered {
        private Answered() {}
    }
}
