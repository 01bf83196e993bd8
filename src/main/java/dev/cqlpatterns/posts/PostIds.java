package dev.cqlpatterns.posts;

import dev.cqlpatterns.platform.errors.ProblemException;
import java.util.UUID;

/** Post ids are timeuuids made by the service, shown as strings. */
final class PostIds {
    /** A version-1 (time-based) uuid in its 36-character form, as the contract states it. */
    static final String PATTERN = "^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-1[0-9A-Fa-f]{3}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$";
    static final String DESCRIPTION = "Post id: a timeuuid (version-1 uuid), as POST /posts answered it";

    private PostIds() {
    }

    /** The id in a path; 400 when it cannot be a post id at all. */
    static UUID parse(String id) {
        try {
            UUID uuid = UUID.fromString(id);
            if (uuid.version() == 1 && id.length() == 36) {
                return uuid;
            }
        } catch (IllegalArgumentException e) {
            // answered below
        }
        throw ProblemException.invalid("id", "must be a post id (a timeuuid such as 5f4dcc3b-5aa7-11ef-8000-0123456789ab)");
    }
}
