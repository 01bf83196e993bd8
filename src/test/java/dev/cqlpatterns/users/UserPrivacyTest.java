package dev.cqlpatterns.users;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static dev.cqlpatterns.users.UsersTest.address;
import static dev.cqlpatterns.users.UsersTest.byEmail;
import static dev.cqlpatterns.users.UsersTest.byUsername;
import static dev.cqlpatterns.users.UsersTest.create;
import static dev.cqlpatterns.users.UsersTest.setAddress;
import static dev.cqlpatterns.users.UsersTest.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;

import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.response.Response;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, privacy (OWASP API3): a user's email, age and addresses are theirs alone; the username
 * is public; the lookup by email is no oracle for which addresses have an account.
 */
@QuarkusTest
class UserPrivacyTest {

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    @Test
    void should_hide_email_age_and_addresses_from_other_users() {
        String olivia = unique("olivia");
        create(olivia, olivia + "@example.com", 29).then().statusCode(201);
        setAddress(olivia, olivia, "residential", address("1 Main Street", "Springfield", 12345))
                .then()
                .statusCode(200);

        Map<String, Object> seenByOthers = byUsername("mallory", olivia)
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "1")
                .extract()
                .jsonPath()
                .getMap("");
        assertThat(seenByOthers).containsOnly(Map.entry("username", olivia));

        byUsername(olivia, olivia)
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "1")
                .body("email", equalTo(olivia + "@example.com"))
                .body("age", equalTo(29))
                .body("addresses.residential.city", equalTo("Springfield"));
    }

    @Test
    void should_answer_an_email_lookup_only_for_the_callers_own_email() {
        String pia = unique("pia");
        create(pia, pia + "@example.com", 52).then().statusCode(201);

        byEmail(pia, pia.toUpperCase() + "@Example.com")
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "2")
                .body("username", equalTo(pia))
                .body("age", equalTo(52));

        // Someone else's email and an email nobody holds get the same answer, at the same cost.
        Response taken = byEmail("mallory", pia + "@example.com");
        Response free = byEmail("mallory", unique("free") + "@example.com");
        for (Response answer : new Response[] {taken, free}) {
            problem(answer, 404)
                    .header("X-Partitions-Read", "1")
                    .body("type", equalTo("urn:cql-patterns:problem:not-found"))
                    .body("$", not(hasKey("username")))
                    .body("$", not(hasKey("age")));
        }
        assertThat(taken.jsonPath().getString("detail").replace(pia, "x"))
                .isEqualTo(free.jsonPath().getString("detail").replaceAll("free[0-9a-f]{8}", "x"));
        assertThat(taken.jsonPath().getString("title"))
                .isEqualTo(free.jsonPath().getString("title"));
    }

    @Test
    void should_let_nobody_else_change_a_user_and_keep_it_as_it_was() {
        String quentin = unique("quentin");
        create(quentin, quentin + "@example.com", 40).then().statusCode(201);
        setAddress(quentin, quentin, "home", address("2 Side Street", "Springfield", 1))
                .then()
                .statusCode(200);

        problem(UsersTest.changeEmail("mallory", quentin, unique("taken") + "@example.com"), 403);
        problem(setAddress("mallory", quentin, "home", address("1 Evil Way", "X", 1)), 403);
        problem(
                given().header("Authorization", Tokens.bearer("mallory"))
                        .when()
                        .delete("/users/{u}/addresses/{k}", quentin, "home"),
                403);

        byUsername(quentin, quentin)
                .then()
                .statusCode(200)
                .body("email", equalTo(quentin + "@example.com"))
                .body("addresses.home.street", equalTo("2 Side Street"));
        byEmail(quentin, quentin + "@example.com")
                .then()
                .statusCode(200)
                .body("addresses.home.street", equalTo("2 Side Street"));
    }
}
