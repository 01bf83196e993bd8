package dev.cqlpatterns.platform.http;

/**
 * What a one-line text field (a name, a title, an email, an address line) may hold: no control
 * characters, so a NUL or an escape sequence never reaches a table and every client that shows it.
 * The range form (not \p{Cc}) is also valid in JSON Schema, where the contract repeats it.
 */
public final class Text {
    /** The control characters (C0, DEL, C1), as a regex character range. */
    public static final String CONTROL_CHARS = "\\x00-\\x1F\\x7F-\\x9F";
    /** One character of a one-line text field. */
    public static final String SINGLE_LINE_CHAR = "[^" + CONTROL_CHARS + "]";
    public static final String SINGLE_LINE = SINGLE_LINE_CHAR + "*";
    public static final String SINGLE_LINE_MESSAGE = "must not contain control characters";

    private Text() {
    }

    /** True when {@code value} holds no control character. */
    public static boolean isSingleLine(String value) {
        return value.chars().noneMatch(Character::isISOControl);
    }
}
