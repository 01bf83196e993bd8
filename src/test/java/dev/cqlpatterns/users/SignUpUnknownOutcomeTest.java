package dev.cqlpatterns.users;

import static dev.cqlpatterns.users.UsersTest.byEmail;
import static dev.cqlpatterns.users.UsersTest.byUsername;
import static dev.cqlpatterns.users.UsersTest.changeEmail;
import static dev.cqlpatterns.users.UsersTest.create;
import static dev.cqlpatterns.users.UsersTest.unique;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.testsupport.ConditionalWriteFaults;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Sign-ups and email moves whose conditional writes end "CAS operation result is unknown"
 * (injected through the tests' ConditionalWriteFaults, after or instead of the write): the request
 * succeeds, and the username and email claims are consistent (issue 14 point 2).
 */
@QuarkusTest
class SignUpUnknownOutcomeTest {

    @Inject
    ConditionalWriteFaults faults;

    @Inject
    StoredRows rows;

    @AfterEach
    void clear() {
        faults.clearFaults();
    }

    private static void assertHolds(String name, String email) {
        byUsername(name, name).then().statusCode(200).body("email", equalTo(email));
        byEmail(name, email).then().statusCode(200).body("username", equalTo(name));
    }

    private void assertDelivered(String table) {
        assertThat(faults.delivered(table))
                .as("the fault on " + table + " happened")
                .isTrue();
    }

    /** Moves {@code name}'s email to {@code email} (200), the fault on {@code faultTable} delivered, both claims consistent. */
    private void moveEmail(String name, String email, String faultTable) {
        changeEmail(name, name, email).then().statusCode(200).body("email", equalTo(email));
        assertDelivered(faultTable);
        assertHolds(name, email);
    }

    /**
     * A claim of the username or of the email ends "result is unknown", after it committed or
     * without having run: the sign-up is created either way (no 503), both claims consistent.
     */
    @ParameterizedTest
    @CsvSource({"users_by_username, true", "users_by_email, true", "users_by_username, false", "users_by_email, false"})
    void should_create_the_user_when_a_claim_ends_with_an_unknown_outcome(String table, boolean committed) {
        String name = unique("unk");
        faults.injectUnknownOutcome(table, committed, 1);
        create(name, name + "@example.com", 30).then().statusCode(201).body("username", equalTo(name));
        assertDelivered(table);
        assertHolds(name, name + "@example.com");
    }

    @Test
    void should_let_the_same_callers_retry_finish_a_half_done_sign_up() {
        // What a 503 between the two claims used to leave: the username claimed, no email row.
        String name = unique("half");
        rows.execute(
                "INSERT INTO users_by_username (username, email, age, version) VALUES (?, ?, ?, 0)",
                name,
                name + "@example.com",
                41);
        byEmail(name, name + "@example.com").then().statusCode(404);

        create(name, name + "@example.com", 41)
                .then()
                .statusCode(200)
                .body("username", equalTo(name))
                .body("email", equalTo(name + "@example.com"))
                .body("age", equalTo(41));
        assertHolds(name, name + "@example.com");
        // Another sign-up of that name is still refused.
        create(name, unique("other") + "@example.com", 41).then().statusCode(409);
        create(name, name + "@example.com", 42).then().statusCode(409);
    }

    @Test
    void should_answer_a_repeated_sign_up_with_the_user() {
        String name = unique("again");
        create(name, name + "@example.com", 20).then().statusCode(201);
        create(name, name.toUpperCase() + "@Example.com", 20)
                .then()
                .statusCode(200)
                .body("username", equalTo(name))
                .body("email", equalTo(name + "@example.com"));
        assertHolds(name, name + "@example.com");
    }

    @Test
    void should_move_the_email_and_release_the_old_one_when_the_move_committed_with_an_unknown_outcome() {
        String name = unique("mov");
        create(name, name + "@example.com", null).then().statusCode(201);
        faults.injectUnknownOutcome(UserStore.USERS, true, 1);
        moveEmail(name, name + "@example.org", UserStore.USERS);
        byEmail(name, name + "@example.com").then().statusCode(404);
    }

    /**
     * The username or email claim commits and Cassandra answers "not applied" with the request's
     * own row (a coordinator that lost a ballot finishes its own accepted proposal first): the
     * request that created the user is told 201, not "you had signed up before".
     */
    @ParameterizedTest
    @CsvSource({"users_by_username", "users_by_email"})
    void should_answer_201_when_a_claim_is_answered_not_applied_with_its_own_row(String table) {
        String name = unique("own");
        faults.injectOwnWriteNotApplied(table, 1);
        create(name, name + "@example.com", 31).then().statusCode(201).body("username", equalTo(name));
        assertDelivered(table);
        assertHolds(name, name + "@example.com");
        create(name, name + "@example.com", 31).then().statusCode(200);
    }

    @Test
    void should_move_the_email_when_its_writes_are_answered_not_applied_with_their_own_rows() {
        String name = unique("ownmov");
        create(name, name + "@example.com", null).then().statusCode(201);
        faults.injectOwnWriteNotApplied(UserStore.EMAILS, 1);
        moveEmail(name, name + "@example.org", UserStore.EMAILS);
        faults.injectOwnWriteNotApplied(UserStore.USERS, 1);
        moveEmail(name, name + "@example.net", UserStore.USERS);
        byEmail(name, name + "@example.com").then().statusCode(404);
        byEmail(name, name + "@example.org").then().statusCode(404);
    }
}
