package dev.cqlpatterns.posts;

import dev.cqlpatterns.platform.errors.ProblemException;
import java.util.UUID;
import java.util.regex.Pattern;

/** Post ids are timeuuids made by the service, shown as strings. */
final class PostIds {
    /** A version-1 (time-based) uuid in its 36-character form, as the contract states it. */
    static final String PATTERN = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-1[0-9A-Fa-f]{3}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$";

    static final String EXAMPLE = "5f4dcc3b-5aa7-11ef-8000-0123456789ab";
    static final String DESCRIPTION = "Post id: a timeuuid (version-1 uuid), as POST /posts answered it";
    private static final Pattern SHAPE = Pattern.compile(PATTERN);

    private PostIds() {}

    /** The id in a path; 400 when it cannot be a post id at all. */
    static UUID parse(String id) {
        // the pattern first: UUID.fromString takes any Unicode digit, and a post id written in
        // fullwidth digits reached the same post
        if (id != null && SHAPE.matcher(id).matches()) {
            return UUID.fromString(id);
        }
        throw ProblemException.invalid("id", "must be a post id (a timeuuid such as " + EXAMPLE + ")");
    }
}
