package dev.cqlpatterns.users;

import com.datastax.oss.driver.api.mapper.annotations.CqlName;
import com.datastax.oss.driver.api.mapper.annotations.Entity;
import com.datastax.oss.driver.api.mapper.annotations.PartitionKey;
import com.datastax.oss.driver.api.mapper.annotations.Transient;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;

/**
 * A row of users_by_username: the user as stored, with its version, and the
 * email a move took them off whose release is not known to be done (previous_email), and
 * the timeuuid of the sign-up request that claimed the username (signup_id).
 */
@Entity
@CqlName("users_by_username")
public record UserRow(
        @PartitionKey String username,
        String email,
        String previousEmail,
        Integer age,
        Map<String, Address> addresses,
        Long version,
        UUID signupId) {

    @Transient
    public Map<String, Address> addressesOrEmpty() {
        return addresses == null ? Map.of() : addresses;
    }

    @Transient
    long versionOrZero() {
        return version == null ? 0 : version;
    }

    /** The next version of this user with different addresses. */
    UserRow withAddresses(Map<String, Address> changed) {
        return new UserRow(username, email, previousEmail, age, Map.copyOf(changed), versionOrZero() + 1, signupId);
    }

    UserRow withAddress(String kind, Address address) {
        Map<String, Address> changed = new HashMap<>(addressesOrEmpty());
        changed.put(kind, address);
        return withAddresses(changed);
    }

    /** This very row when there is no such address: nothing to write. */
    UserRow withoutAddress(String kind) {
        if (!addressesOrEmpty().containsKey(kind)) {
            return this;
        }
        Map<String, Address> changed = new HashMap<>(addressesOrEmpty());
        changed.remove(kind);
        return withAddresses(changed);
    }

    /** The next version of this user, moved to another email: the one left is to be released. */
    UserRow withEmail(String newEmail) {
        return new UserRow(username, newEmail, email, age, addresses, versionOrZero() + 1, signupId);
    }

    /** This version with nothing left to release (what is written once the previous email is released). */
    @Transient
    UserRow settled() {
        return new UserRow(username, email, null, age, addresses, version, signupId);
    }

    /**
     * Whether {@code held} (read back, or null) is this very state: same version, email, age and
     * addresses (previousEmail is bookkeeping of the move that wrote this version, not state). What tells a conditional write whose outcome is unknown whether it holds.
     */
    boolean sameAs(UserRow held) {
        return held != null
                && versionOrZero() == held.versionOrZero()
                && sameSignUp(held)
                && addressesOrEmpty().equals(held.addressesOrEmpty());
    }

    /** Whether {@code held} is the row this very sign-up request claimed (its signup_id). */
    boolean signedUpBy(UserRow held) {
        return held != null && signupId != null && signupId.equals(held.signupId());
    }

    /** Whether {@code held} was signed up with this user's email and age (a retried sign-up). */
    boolean sameSignUp(UserRow held) {
        return java.util.Objects.equals(email, held.email()) && java.util.Objects.equals(age, held.age());
    }

    /** This user as its users_by_email copy. */
    @Transient
    EmailRow emailCopy() {
        return new EmailRow(email, username, age, addresses, versionOrZero());
    }
}
