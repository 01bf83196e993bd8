package dev.cqlpatterns.users;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.http.Text;
import java.util.Locale;
import java.util.regex.Pattern;

/** What a username, an email and an address kind look like; shared by every users route. */
public final class UserRules {
    /**
     * Something@something.tld, no spaces or control characters; upper case is accepted and stored lower case.
     * Anchored, and the space spelt out (\x20; the other white space of Java's \s are control characters),
     * so the contract's JSON Schema pattern (ECMA-262: unanchored, Unicode \s) means exactly what the server checks.
     */
    private static final String EMAIL_CHAR = "[^@\\x20" + Text.CONTROL_CHARS + "]";

    public static final String EMAIL = "^" + EMAIL_CHAR + "{1,64}@" + EMAIL_CHAR + "+\\." + EMAIL_CHAR + "+$";
    public static final String EMAIL_MESSAGE = "must be an email address such as alice@example.com";
    public static final int EMAIL_MAX = 254;
    private static final Pattern STORED = Pattern.compile(EMAIL);
    public static final String KIND = "^[a-z0-9_-]{1,32}$";
    public static final String KIND_MESSAGE = "must be 1 to 32 characters of a-z, 0-9, _ -";

    private UserRules() {}

    /**
     * The email as stored: lower case. Lower-casing can lengthen it (U+0130 becomes two characters), so the
     * stored form is checked again, and what is stored and answered always keeps the contract's limits.
     */
    public static String normalizeEmail(String email) {
        String lower = email.toLowerCase(Locale.ROOT);
        if (Text.length(lower) > EMAIL_MAX || !STORED.matcher(lower).matches()) {
            throw ProblemException.invalid(
                    "email", EMAIL_MESSAGE + ", at most " + EMAIL_MAX + " characters once lower case");
        }
        return lower;
    }
}
