package dev.cqlpatterns.testsupport;

import static io.restassured.RestAssured.given;

import io.restassured.http.ContentType;
import io.restassured.specification.RequestSpecification;

/** Requests as a signed-in caller: their bearer token in Authorization. */
public final class Callers {

    private Callers() {}

    /** A request as {@code username}. */
    public static RequestSpecification as(String username) {
        return given().header("Authorization", Tokens.bearer(username));
    }

    /** A request as {@code username} carrying {@code body} as JSON. */
    public static RequestSpecification json(String username, Object body) {
        return as(username).contentType(ContentType.JSON).body(body);
    }
}
