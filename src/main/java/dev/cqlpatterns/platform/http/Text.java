package dev.cqlpatterns.platform.http;

/**
 * What a one-line text field (a name, a title, an email, an address line) may hold: no control
 * characters, so a NUL or an escape sequence never reaches a table and every client that shows it.
 * The range form (not \p{Cc}) is also valid in JSON Schema, where the contract repeats it.
 *
 * <p>Patterns here are written for both Java and the contract's JSON Schema (ECMA-262), which
 * differ: Java's {@code @Pattern} matches the whole value, JSON Schema finds the pattern anywhere in
 * it (so whole-value patterns are anchored with ^...$), and \s means ASCII white space in Java but
 * Unicode white space in ECMA-262 (so white space is spelt out).
 */
public final class Text {
    /** The control characters (C0, DEL, C1), as a regex character range. */
    public static final String CONTROL_CHARS = "\\x00-\\x1F\\x7F-\\x9F";
    /** One character of a one-line text field. */
    public static final String SINGLE_LINE_CHAR = "[^" + CONTROL_CHARS + "]";
    public static final String SINGLE_LINE = "^" + SINGLE_LINE_CHAR + "*$";
    public static final String SINGLE_LINE_MESSAGE = "must not contain control characters";
    /** The white space of {@link Character#isWhitespace} that is no control character, as a class body. */
    private static final String PRINTABLE_WHITESPACE =
            "\\x20\\u1680\\u2000-\\u2006\\u2008-\\u200A\\u2028\\u2029\\u205F\\u3000";
    /**
     * The characters {@link Character#isWhitespace} takes as white space ({@link String#isBlank},
     * {@link String#strip}, Hibernate's {@code @NotBlank}), as the body of a regex character class
     * valid in Java and ECMA-262.
     */
    public static final String JAVA_WHITESPACE = "\\t\\n\\x0B\\f\\r\\x1C-\\x1F" + PRINTABLE_WHITESPACE;
    /** The contract's pattern of {@code @NotBlank} or {@link String#isBlank}: one character that is no white space. */
    public static final String NOT_BLANK = "[^" + JAVA_WHITESPACE + "]";
    /**
     * The contract's pattern of a one-line field that is also {@code @NotBlank}: no control character,
     * and one that is no white space, before which only white space. Linear: no backtracking however
     * long the value.
     */
    public static final String SINGLE_LINE_NOT_BLANK = "^[" + PRINTABLE_WHITESPACE + "]*[^" + CONTROL_CHARS
            + PRINTABLE_WHITESPACE + "]" + SINGLE_LINE_CHAR + "*$";

    private Text() {
    }

    /** True when {@code value} holds no control character. */
    public static boolean isSingleLine(String value) {
        return value.chars().noneMatch(Character::isISOControl);
    }
}
