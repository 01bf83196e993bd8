package dev.cqlpatterns.groups;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.time.TimeUuids;
import java.time.Instant;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A member of a group, with the email and age copied in from the user when they joined. */
@Schema(name = "GroupMember")
public record Member(
        @Schema(examples = "alice") String username,
        @Schema(examples = "alice@example.com") String email,
        @Schema(nullable = true, examples = "34") Integer age,
        @Schema(description = "When the user joined the group", examples = "2026-05-16T14:00:00Z") Instant joinedAt) {

    /** From a row with the columns username, email, age, joined. */
    static Member of(Row row) {
        return new Member(row.getString("username"), row.getString("email"),
                row.isNull("age") ? null : row.getInt("age"), TimeUuids.instant(row.getUuid("joined")));
    }
}
