package dev.cqlpatterns.users;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.mapper.annotations.Dao;
import com.datastax.oss.driver.api.mapper.annotations.DefaultNullSavingStrategy;
import com.datastax.oss.driver.api.mapper.annotations.Delete;
import com.datastax.oss.driver.api.mapper.annotations.Insert;
import com.datastax.oss.driver.api.mapper.annotations.Select;
import com.datastax.oss.driver.api.mapper.annotations.StatementAttributes;
import com.datastax.oss.driver.api.mapper.annotations.Update;
import com.datastax.oss.driver.api.mapper.entity.saving.NullSavingStrategy;
import dev.cqlpatterns.platform.cassandra.Cql;
import java.util.concurrent.CompletionStage;
import java.util.function.UnaryOperator;

/**
 * The statements on users_by_username and users_by_email, made by the object mapper. Conditional
 * writes answer the raw result so callers read the outcome from {@code wasApplied()} and, when
 * it was not applied, the current values Cassandra sends back. Those run through CompareAndSet,
 * which tells its own outcome from a "not applied", are Cql.conditional statements: idempotent, in
 * the driver profile that sends them to a second coordinator when the first one is stuck.
 */
@Dao
@DefaultNullSavingStrategy(NullSavingStrategy.SET_TO_NULL)
public interface UserDao {

    /** Partitions each statement here reads: a SELECT by key or a conditional write. Keep it so. */
    int READS = 1;

    /** SELECT * FROM users_by_username WHERE username = ?; the adjuster may make it a serial read. */
    @Select
    CompletionStage<UserRow> byUsername(String username, UnaryOperator<BoundStatementBuilder> adjust);

    /** SELECT * FROM users_by_email WHERE email = ?; the adjuster may make it a serial read. */
    @Select
    CompletionStage<EmailRow> byEmail(String email, UnaryOperator<BoundStatementBuilder> adjust);

    /** Claims a username: INSERT ... IF NOT EXISTS. */
    @StatementAttributes(executionProfileName = Cql.CONDITIONAL_PROFILE, idempotence = true)
    @Insert(ifNotExists = true)
    CompletionStage<AsyncResultSet> claimUsername(UserRow user);

    /** Claims an email with a copy of its user: INSERT ... IF NOT EXISTS. */
    @StatementAttributes(executionProfileName = Cql.CONDITIONAL_PROFILE, idempotence = true)
    @Insert(ifNotExists = true)
    CompletionStage<AsyncResultSet> claimEmail(EmailRow copy);

    /**
     * Writes the next version of a user if nobody changed it since it was read (or, with the same
     * version, clears its previous_email once released).
     */
    @StatementAttributes(executionProfileName = Cql.CONDITIONAL_PROFILE, idempotence = true)
    @Update(customIfClause = "version = :expected")
    CompletionStage<AsyncResultSet> updateIfVersion(UserRow user, long expected);

    /**
     * Refreshes the email copy, unless the email moved to someone else or the copy is as new; also
     * how a claim the user holds already is asserted again at their current version.
     */
    @StatementAttributes(executionProfileName = Cql.CONDITIONAL_PROFILE, idempotence = true)
    @Update(customIfClause = "username = :owner AND version < :newer")
    CompletionStage<AsyncResultSet> refreshCopy(EmailRow copy, String owner, long newer);

    /**
     * Releases an email, only if {@code owner} still holds it by a claim made before version
     * {@code leftAt} of the owner (a claim made since is a move back to it: see ChangeEmail).
     */
    @StatementAttributes(executionProfileName = Cql.CONDITIONAL_PROFILE, idempotence = true)
    @Delete(entityClass = EmailRow.class, customIfClause = "username = :owner AND version < :leftAt")
    CompletionStage<AsyncResultSet> releaseEmail(String email, String owner, long leftAt);

    /** Undoes a username claim whose email claim failed (only if it is still that claim). */
    @Delete(entityClass = UserRow.class, customIfClause = "email = :claimedEmail")
    CompletionStage<AsyncResultSet> releaseUsername(String username, String claimedEmail);
}
