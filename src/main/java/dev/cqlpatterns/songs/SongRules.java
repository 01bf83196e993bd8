package dev.cqlpatterns.songs;

import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.http.Text;
import java.util.Locale;

/** What artists, albums, song titles and tags look like. */
final class SongRules {
    static final int NAME_MAX = 200;
    static final int TAG_MAX = 50;

    private SongRules() {}

    /**
     * A tag as stored: trimmed of spaces and lower case; 400 naming {@code field} when empty, too long
     * or holding a control character, at the ends too ("\r\njazz" was stripped to "jazz", and a
     * DELETE of it removed the real tag).
     */
    static String tag(String field, String raw) {
        if (raw != null && !Text.isSingleLine(raw)) {
            throw ProblemException.invalid(field, "must be at most " + TAG_MAX + " printable characters");
        }
        String tag = raw == null ? "" : raw.strip().toLowerCase(Locale.ROOT);
        if (tag.isEmpty()) {
            throw ProblemException.invalid(field, "must not be empty");
        }
        if (Text.length(tag) > TAG_MAX) {
            throw ProblemException.invalid(field, "must be at most " + TAG_MAX + " printable characters");
        }
        return tag;
    }

    /** An artist, album or song title: 1 to 200 characters, not blank, one line. */
    static String name(String field, String value) {
        if (value == null || value.isBlank() || Text.length(value) > NAME_MAX) {
            throw ProblemException.invalid(field, "must be 1 to " + NAME_MAX + " characters, not blank");
        }
        if (!Text.isSingleLine(value)) {
            throw ProblemException.invalid(field, Text.SINGLE_LINE_MESSAGE);
        }
        return value;
    }
}
