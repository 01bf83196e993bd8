package dev.cqlpatterns.users;

import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A user as the API shows it: the same for GET /users/{username} and GET /users?email=. */
@Schema(name = "User")
public record User(
        @Schema(examples = "alice") String username,
        @Schema(description = "Lower case", examples = "alice@example.com") String email,
        @Schema(nullable = true, examples = "34") Integer age,
        @Schema(description = "Addresses by kind, e.g. residential, business") Map<String, Address> addresses) {

    static User of(UserRow row) {
        return new User(row.username(), row.email(), row.age(), new TreeMap<>(row.addressesOrEmpty()));
    }
}
