package dev.cqlpatterns.users;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.cqlpatterns.platform.identity.Usernames;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A user as the API shows it: the same for GET /users/{username} and GET /users?email=.
 *
 * <p>What is public and what is private: the username is public (it names the user in groups,
 * conversations, posts and as the owner of courses and songs). Email, age and postal addresses are
 * private: only the user themselves (the caller whose token subject is the username) sees them;
 * anyone else gets the username alone, and no list of the service carries them.
 */
@Schema(
        name = "User",
        requiredProperties = "username",
        description = "A user. email, age and addresses are private: present only when the caller is this "
                + "user; anyone else sees the username alone")
@JsonInclude(JsonInclude.Include.NON_NULL)
public record User(
        @Schema(pattern = Usernames.PATTERN, examples = "alice")
        String username,

        @Schema(
                description = "Lower case; private: only for the user themselves",
                pattern = UserRules.EMAIL,
                maxLength = UserRules.EMAIL_MAX,
                examples = "alice@example.com")
        String email,

        @Schema(description = "Private: only for the user themselves; absent when not given", examples = "34")
        Integer age,

        @Schema(description = "Addresses by kind, e.g. residential, business; private: only for the user themselves")
        Map<String, Address> addresses) {

    /** The user as they see themselves: every field. */
    static User of(UserRow row) {
        return new User(row.username(), row.email(), row.age(), new TreeMap<>(row.addressesOrEmpty()));
    }

    /** The user as {@code caller} may see them: everything for the user themselves, else the username alone. */
    static User seenBy(UserRow row, String caller) {
        return row.username().equals(caller) ? of(row) : new User(row.username(), null, null, null);
    }
}
