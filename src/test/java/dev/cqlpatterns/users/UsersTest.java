package dev.cqlpatterns.users;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasKey;
import static org.hamcrest.Matchers.not;
import static org.hamcrest.Matchers.nullValue;

import dev.cqlpatterns.testsupport.Callers;
import dev.cqlpatterns.testsupport.Concurrently;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

@QuarkusTest
class UsersTest {

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    static String unique(String prefix) {
        return prefix + UUID.randomUUID().toString().substring(0, 8);
    }

    static Response create(String username, String email, Integer age) {
        return Callers.json(
                        username,
                        age == null
                                ? Map.of("username", username, "email", email)
                                : Map.of("username", username, "email", email, "age", age))
                .when()
                .post("/users");
    }

    static Response changeEmail(String caller, String username, String email) {
        return Callers.json(caller, Map.of("email", email)).when().put("/users/{u}/email", username);
    }

    /** GET /users?email= as {@code caller}: answers only the caller's own email. */
    static Response byEmail(String caller, String email) {
        return Callers.as(caller).queryParam("email", email).when().get("/users");
    }

    /** GET /users/{username} as {@code caller}: private fields only when the caller is the user. */
    static Response byUsername(String caller, String username) {
        return Callers.as(caller).when().get("/users/{u}", username);
    }

    static Response setAddress(String caller, String username, String kind, Map<String, Object> address) {
        return Callers.json(caller, address).when().put("/users/{u}/addresses/{k}", username, kind);
    }

    @Test
    void should_refuse_an_email_that_lower_case_makes_too_long() {
        // 64 capital dotted I fit the local part's 64; lower case, each is two characters (i and a combining dot).
        String bob = unique("bob");
        problem(create(bob, "\u0130".repeat(64) + "@example.com", 30), 400, "email");
        byUsername(bob, bob).then().statusCode(404);
    }

    @Test
    void should_create_a_user_and_find_it_by_username_and_by_email() {
        String alice = unique("alice");
        create(alice, alice.toUpperCase() + "@Example.COM", 34)
                .then()
                .statusCode(201)
                .header("Location", equalTo("/users/" + alice))
                // two conditional writes (username, then email claim), each reading its partition
                .header("X-Partitions-Read", "2")
                .body("username", equalTo(alice))
                .body("email", equalTo(alice + "@example.com"))
                .body("age", equalTo(34));

        byUsername(alice, alice)
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "1")
                .body("email", equalTo(alice + "@example.com"))
                .body("age", equalTo(34));
        // the email's claim, then the user row it names (a claim may be left over by a failed move)
        byEmail(alice, alice.toUpperCase() + "@EXAMPLE.com")
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "2")
                .body("username", equalTo(alice))
                .body("age", equalTo(34));
    }

    @Test
    void should_refuse_invalid_usernames_and_emails() {
        for (String bad :
                List.of("ab", "Alice" + UUID.randomUUID().toString().substring(0, 4), "a b c", "x".repeat(33))) {
            problem(create(bad, "someone@example.com", null), 400, "username");
        }
        String bob = unique("bob");
        for (String bad : List.of("not-an-email", "bob@", "@example.com", "bob@example", "b o b@example.com")) {
            problem(create(bob, bad, null), 400, "email");
        }
        problem(create(bob, bob + "@example.com", -1), 400, "age");
        problem(byEmail("reader", "not-an-email"), 400);
        problem(Callers.as("reader").when().get("/users"), 400);
        problem(byUsername("reader", bob), 404);
        // the same rule on every route that names a user, here and in the other features
        problem(byUsername("reader", "ab"), 400, "username");
        problem(Callers.as("reader").when().get("/messages?sender=A"), 400, "sender");
        problem(
                Callers.as("reader")
                        .contentType("application/json")
                        .body(Map.of("members", List.of("x")))
                        .when()
                        .post("/conversations"),
                400);
    }

    @Test
    void should_only_let_callers_create_themselves() {
        String carol = unique("carol");
        problem(
                Callers.json("someone-else", Map.of("username", carol, "email", carol + "@example.com"))
                        .when()
                        .post("/users"),
                403);
        problem(
                given().contentType(ContentType.JSON)
                        .body(Map.of("username", carol, "email", carol + "@example.com"))
                        .when()
                        .post("/users"),
                401);
    }

    @Test
    void should_refuse_a_taken_username_or_email_and_leave_nothing_half_created() {
        String dave = unique("dave");
        create(dave, dave + "@example.com", null).then().statusCode(201);
        problem(create(dave, unique("other") + "@example.com", null), 409);

        String erin = unique("erin");
        problem(create(erin, dave + "@EXAMPLE.com", null), 409);
        // The username claimed before the email failed was released.
        problem(byUsername(erin, erin), 404);
        create(erin, erin + "@example.com", null).then().statusCode(201);
        byEmail(dave, dave + "@example.com").then().statusCode(200).body("username", equalTo(dave));
    }

    @Test
    void should_give_one_of_two_concurrent_creations_with_one_email_a_409() {
        for (int round = 0; round < 3; round++) {
            String email = unique("shared") + "@example.com";
            List<String> names = List.of(unique("frank"), unique("grace"));
            List<Integer> statuses =
                    Concurrently.run(names, name -> create(name, email, null).statusCode());
            assertThat(statuses).containsExactlyInAnyOrder(201, 409);
            String winner = names.get(statuses.indexOf(201));
            String loser = names.get(statuses.indexOf(409));
            byEmail(winner, email).then().statusCode(200).body("username", equalTo(winner));
            byUsername(loser, loser).then().statusCode(404);
        }
    }

    @Test
    void should_move_an_email_and_release_the_old_one() {
        String heidi = unique("heidi");
        create(heidi, heidi + "@example.com", 40).then().statusCode(201);
        setAddress(heidi, heidi, "residential", address("1 Main Street", "Springfield", 12345))
                .then()
                .statusCode(200);

        changeEmail(heidi, heidi, heidi + "@Example.ORG")
                .then()
                .statusCode(200)
                .body("email", equalTo(heidi + "@example.org"));

        byUsername(heidi, heidi).then().statusCode(200).body("email", equalTo(heidi + "@example.org"));
        byEmail(heidi, heidi + "@example.org")
                .then()
                .statusCode(200)
                .header("X-Partitions-Read", "2")
                .body("username", equalTo(heidi))
                .body("age", equalTo(40))
                .body("addresses.residential.city", equalTo("Springfield"));
        problem(byEmail(heidi, heidi + "@example.com"), 404);
        // The released address is free for someone else.
        String ivan = unique("ivan");
        create(ivan, heidi + "@example.com", null).then().statusCode(201);
        // Setting the same email again changes nothing.
        changeEmail(heidi, heidi, heidi + "@example.org")
                .then()
                .statusCode(200)
                .body("email", equalTo(heidi + "@example.org"));
        problem(changeEmail(heidi, heidi, heidi + "@example.com"), 409);
        problem(changeEmail(heidi, heidi, "nope"), 400);
    }

    @Test
    void should_give_one_of_two_users_moving_to_one_email_a_409() {
        for (int round = 0; round < 3; round++) {
            List<String> names = List.of(unique("judy"), unique("ken"));
            names.forEach(n -> create(n, n + "@example.com", null).then().statusCode(201));
            String target = unique("wanted") + "@example.com";
            List<Integer> statuses = Concurrently.run(
                    names, name -> changeEmail(name, name, target).statusCode());
            assertThat(statuses).containsExactlyInAnyOrder(200, 409);
            String winner = names.get(statuses.indexOf(200));
            String loser = names.get(statuses.indexOf(409));
            byEmail(winner, target).then().statusCode(200).body("username", equalTo(winner));
            byUsername(loser, loser).then().body("email", equalTo(loser + "@example.com"));
            byEmail(loser, loser + "@example.com").then().statusCode(200).body("username", equalTo(loser));
            byEmail(winner, winner + "@example.com").then().statusCode(404);
        }
    }

    @Test
    void should_keep_addresses_in_a_map_and_in_step_with_the_email_copy() {
        String lena = unique("lena");
        create(lena, lena + "@example.com", null).then().statusCode(201);
        setAddress(lena, lena, "residential", address("1 Main Street", "Springfield", 12345))
                .then()
                .statusCode(200)
                .body("addresses.residential.street", equalTo("1 Main Street"));
        setAddress(lena, lena, "business", address("2 Work Road", "Shelbyville", 54321))
                .then()
                .statusCode(200);
        setAddress(lena, lena, "business", address("3 Office Park", "Shelbyville", 54322))
                .then()
                .statusCode(200);

        byUsername(lena, lena)
                .then()
                .statusCode(200)
                .body("addresses.residential.zip", equalTo(12345))
                .body("addresses.business.street", equalTo("3 Office Park"));
        byEmail(lena, lena + "@example.com")
                .then()
                .statusCode(200)
                .body("addresses.residential.city", equalTo("Springfield"))
                .body("addresses.business.street", equalTo("3 Office Park"));

        Callers.as(lena)
                .when()
                .delete("/users/{u}/addresses/{k}", lena, "business")
                .then()
                .statusCode(204);
        byUsername(lena, lena)
                .then()
                .body("addresses", not(hasKey("business")))
                .body("addresses", hasKey("residential"));
        byEmail(lena, lena + "@example.com").then().body("addresses", not(hasKey("business")));
        Callers.as(lena)
                .when()
                .delete("/users/{u}/addresses/{k}", lena, "business")
                .then()
                .statusCode(204);
    }

    @Test
    void should_refuse_bad_addresses_and_too_many_of_them() {
        String mike = unique("mike");
        create(mike, mike + "@example.com", null).then().statusCode(201);
        problem(setAddress(mike, mike, "home", Map.of("street", "", "city", "X", "zip", 1)), 400, "street");
        problem(setAddress(mike, mike, "home", Map.of("street", "1 A St", "city", "X")), 400, "zip");
        problem(setAddress(mike, mike, "Not A Kind", address("1 A St", "X", 1)), 400);
        for (int i = 0; i < 10; i++) {
            setAddress(mike, mike, "kind" + i, address(i + " A St", "X", i))
                    .then()
                    .statusCode(200);
        }
        problem(setAddress(mike, mike, "one-too-many", address("1 A St", "X", 1)), 409);
        setAddress(mike, mike, "kind3", address("33 A St", "X", 3)).then().statusCode(200);
    }

    @Test
    void should_forbid_changing_another_users_email_or_addresses() {
        String nina = unique("nina");
        create(nina, nina + "@example.com", null).then().statusCode(201);
        problem(changeEmail("mallory", nina, unique("stolen") + "@example.com"), 403);
        problem(setAddress("mallory", nina, "residential", address("1 Evil Way", "X", 1)), 403);
        problem(Callers.as("mallory").when().delete("/users/{u}/addresses/{k}", nina, "residential"), 403);
        byUsername(nina, nina)
                .then()
                .body("email", equalTo(nina + "@example.com"))
                .body("addresses.residential", nullValue());
    }

    @Test
    void should_answer_404_for_unknown_users() {
        String nobody = unique("nobody");
        problem(byUsername(nobody, nobody), 404);
        problem(byEmail(nobody, nobody + "@example.com"), 404);
        problem(changeEmail(nobody, nobody, nobody + "@example.com"), 404);
        problem(setAddress(nobody, nobody, "home", address("1 A St", "X", 1)), 404);
        // Nothing was claimed on the way.
        String olga = unique("olga");
        create(olga, nobody + "@example.com", null).then().statusCode(201);
    }

    static Map<String, Object> address(String street, String city, int zip) {
        return Map.of("street", street, "city", city, "zip", zip);
    }
}
