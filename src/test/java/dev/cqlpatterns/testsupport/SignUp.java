package dev.cqlpatterns.testsupport;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import java.util.Map;

/** Signs users up over HTTP, as a client would: conversations take signed-up users only. */
public final class SignUp {

    private SignUp() {}

    /** Creates the user {@code username} (as themselves) and returns the name. */
    public static String user(String username) {
        given().header("Authorization", Tokens.bearer(username))
                .contentType(ContentType.JSON)
                .body(Map.of("username", username, "email", username + "@example.com"))
                .when()
                .post("/users")
                .then()
                .statusCode(201);
        return username;
    }
}
