package dev.cqlpatterns.users;

import static dev.cqlpatterns.users.UsersTest.byEmail;
import static dev.cqlpatterns.users.UsersTest.byUsername;
import static dev.cqlpatterns.users.UsersTest.changeEmail;
import static dev.cqlpatterns.users.UsersTest.create;
import static dev.cqlpatterns.users.UsersTest.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * An email move that failed for real (503) after the user was moved (step 2 of ChangeEmail): the
 * old address's claim is left naming the user, and previous_email names it (issue 14). The rows
 * are written here as such a failure leaves them. The client's retry of the same PUT releases it;
 * meanwhile nobody is answered from it, and anyone else can take the address over; a move of the
 * user back to it is not taken over.
 */
@QuarkusTest
class LeftEmailClaimTest {

    @Inject
    StoredRows rows;

    /**
     * A user moved from name@example.com to name@example.org (version 1) whose release of the old
     * address failed: its claim (made at version 0) is still there, and previous_email names it.
     */
    private String movedLeavingTheOldClaim() {
        String name = unique("left");
        create(name, name + "@example.com", 30).then().statusCode(201);
        changeEmail(name, name, name + "@example.org").then().statusCode(200);
        rows.execute(
                "INSERT INTO users_by_email (email, username, age, version) VALUES (?, ?, 30, 0)",
                name + "@example.com",
                name);
        rows.execute("UPDATE users_by_username SET previous_email = ? WHERE username = ?", name + "@example.com", name);
        return name;
    }

    /** The claim of {@code email} (username, version), or null. */
    private Row claim(String email) {
        List<Row> found = rows.execute("SELECT username, version FROM users_by_email WHERE email = ?", email);
        return found.isEmpty() ? null : found.get(0);
    }

    private String previousEmail(String username) {
        return rows.execute("SELECT previous_email FROM users_by_username WHERE username = ?", username)
                .get(0)
                .getString("previous_email");
    }

    @Test
    void should_release_the_old_email_when_the_same_move_is_retried() {
        String name = movedLeavingTheOldClaim();
        // Meanwhile the left claim answers nobody, not even the user it names.
        byEmail(name, name + "@example.com").then().statusCode(404);
        byEmail(name, name + "@example.org")
                .then()
                .statusCode(200)
                .body("username", equalTo(name))
                .header("X-Partitions-Read", "2");

        changeEmail(name, name, name + "@example.org")
                .then()
                .statusCode(200)
                .body("email", equalTo(name + "@example.org"));
        assertThat(claim(name + "@example.com"))
                .as("the old claim, released by the retry")
                .isNull();
        assertThat(previousEmail(name)).isNull();
        byEmail(name, name + "@example.org").then().statusCode(200).body("email", equalTo(name + "@example.org"));
        String other = unique("next");
        create(other, name + "@example.com", null).then().statusCode(201);
    }

    @Test
    void should_let_another_user_sign_up_with_or_move_to_an_email_left_behind() {
        String name = movedLeavingTheOldClaim();
        String other = unique("taker");
        create(other, name + "@example.com", 22).then().statusCode(201).body("email", equalTo(name + "@example.com"));
        byEmail(other, name + "@example.com").then().statusCode(200).body("username", equalTo(other));
        byEmail(name, name + "@example.com").then().statusCode(404);
        byUsername(name, name).then().statusCode(200).body("email", equalTo(name + "@example.org"));

        String second = movedLeavingTheOldClaim();
        changeEmail(other, other, second + "@example.com")
                .then()
                .statusCode(200)
                .body("email", equalTo(second + "@example.com"));
        byEmail(other, second + "@example.com").then().statusCode(200).body("username", equalTo(other));
        // The address other left is free again.
        create(unique("third"), name + "@example.com", null).then().statusCode(201);
    }

    @Test
    void should_not_take_over_an_email_its_holder_is_moving_back_to() {
        String name = movedLeavingTheOldClaim();
        // A move back to the old address, after its claim was raised to the user's version (1) and
        // before the user row was written: previous_email still names the address, the claim is live.
        rows.execute("UPDATE users_by_email SET version = 1 WHERE email = ?", name + "@example.com");
        String other = unique("early");
        create(other, name + "@example.com", null).then().statusCode(409);
        changeEmail(name, name, name + "@example.com")
                .then()
                .statusCode(200)
                .body("email", equalTo(name + "@example.com"));
        byEmail(name, name + "@example.com").then().statusCode(200).body("username", equalTo(name));
    }

    @Test
    void should_move_back_to_an_email_left_behind_and_release_the_one_it_leaves() {
        String name = movedLeavingTheOldClaim();
        changeEmail(name, name, name + "@example.com")
                .then()
                .statusCode(200)
                .body("email", equalTo(name + "@example.com"));
        byEmail(name, name + "@example.com").then().statusCode(200).body("username", equalTo(name));
        assertThat(claim(name + "@example.com").getLong("version")).isEqualTo(2);
        assertThat(claim(name + "@example.org")).isNull();
        assertThat(previousEmail(name)).isNull();
        create(unique("after"), name + "@example.com", null).then().statusCode(409);
    }

    @Test
    void should_release_an_email_left_behind_when_the_user_moves_on() {
        String name = movedLeavingTheOldClaim();
        changeEmail(name, name, name + "@example.net")
                .then()
                .statusCode(200)
                .body("email", equalTo(name + "@example.net"));
        assertThat(claim(name + "@example.com")).as("left by the failed move").isNull();
        assertThat(claim(name + "@example.org")).as("left by this move").isNull();
        assertThat(previousEmail(name)).isNull();
    }
}
