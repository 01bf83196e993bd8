package dev.cqlpatterns.groups;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.time.TimeUuids;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A member of a group as every group answer shows it: the username (public) and the join time.
 * No email or age: a list of members never carries a user's private fields (see users.User).
 */
@Schema(name = "GroupMember")
public record Member(
        @Schema(pattern = Usernames.ANSWERED, examples = "alice")
        String username,

        @Schema(description = "When the user joined the group", examples = "2026-05-16T14:00:00Z")
        Instant joinedAt) {

    /** From a row with the columns username, joined. */
    static Member of(Row row) {
        return new Member(row.getString("username"), TimeUuids.instant(row.getUuid("joined")));
    }
}
