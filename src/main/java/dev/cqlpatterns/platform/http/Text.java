package dev.cqlpatterns.platform.http;

/**
 * The one rule for control characters (C0, DEL, C1) in text: a one-line field (a name, a title, a
 * tag, an email, an address line, an attachment name) holds none; free text (message content, post
 * and comment bodies, paste bodies) holds none but tab, line feed and carriage return. So a NUL or an
 * escape sequence never reaches a table and every client that shows it. The range form (not
 * \p{Cc}) is also valid in JSON Schema, where the contract repeats it.
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
    /** One character of free text: no control character but tab, line feed and carriage return. */
    public static final String FREE_TEXT_CHAR = "[^\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F-\\x9F]";

    public static final String FREE_TEXT = "^" + FREE_TEXT_CHAR + "*$";
    public static final String FREE_TEXT_MESSAGE =
            "must not contain control characters other than tab, line feed " + "and carriage return";
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
    public static final String SINGLE_LINE_NOT_BLANK =
            "^[" + PRINTABLE_WHITESPACE + "]*[^" + CONTROL_CHARS + PRINTABLE_WHITESPACE + "]" + SINGLE_LINE_CHAR + "*$";

    /**
     * The contract's pattern of free text that is also {@code @NotBlank}: no control character but tab,
     * line feed and carriage return, and one character that is no white space. Linear, as above.
     */
    public static final String FREE_TEXT_NOT_BLANK = "^[\\t\\n\\r" + PRINTABLE_WHITESPACE + "]*[^" + CONTROL_CHARS
            + PRINTABLE_WHITESPACE + "]" + FREE_TEXT_CHAR + "*$";

    private Text() {}

    /**
     * The length of {@code value} as the contract counts it: in code points, as JSON Schema's
     * maxLength does (and Hibernate Validator's @CodePointLength), not in UTF-16 units (String.length,
     * @Size), which count an emoji twice.
     */
    public static int length(String value) {
        return value.codePointCount(0, value.length());
    }

    /** True when {@code value} holds no control character. */
    public static boolean isSingleLine(String value) {
        return value.chars().noneMatch(Character::isISOControl);
    }

    /** True when {@code value} holds no control character but tab, line feed and carriage return. */
    public static boolean isFreeText(String value) {
        return value.chars().noneMatch(c -> Character.isISOControl(c) && c != '\t' && c != '\n' && c != '\r');
    }
}
