package dev.cqlpatterns.users;

import com.datastax.oss.driver.api.mapper.annotations.CqlName;
import com.datastax.oss.driver.api.mapper.annotations.Entity;
import com.datastax.oss.driver.api.mapper.annotations.PartitionKey;
import java.util.Map;

/**
 * A row of users_by_email: the claim of an email by a user, and a copy of that
 * user as of {@code version} of its users_by_username row.
 */
@Entity
@CqlName("users_by_email")
public record EmailRow(
        @PartitionKey String email, String username, Integer age, Map<String, Address> addresses, Long version) {}
