package dev.cqlpatterns.testsupport;

import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.platform.errors.Problem;
import io.restassured.response.Response;
import io.restassured.response.ValidatableResponse;

/** The checks most REST tests make on an answer, written once. */
public final class Responses {

    private Responses() {}

    /** Asserts {@code status} and a problem+json body; the caller adds its body matchers. */
    public static ValidatableResponse problem(Response response, int status) {
        return problem(response.then(), status);
    }

    /** Asserts {@code status}, a problem+json body, and that its first error names {@code field}. */
    public static ValidatableResponse problem(Response response, int status, String field) {
        return problem(response.then(), status, field);
    }

    /** As {@link #problem(Response, int)}, for a helper that already called {@code then()}. */
    public static ValidatableResponse problem(ValidatableResponse response, int status) {
        return response.statusCode(status).contentType(Problem.MEDIA_TYPE);
    }

    /** As {@link #problem(Response, int, String)}, for a helper that already called {@code then()}. */
    public static ValidatableResponse problem(ValidatableResponse response, int status, String field) {
        return problem(response, status).body("errors[0].field", equalTo(field));
    }

    /** Asserts a 201 Created and answers the {@code id} of what it created. */
    public static String createdId(Response response) {
        return response.then().statusCode(201).extract().path("id");
    }
}
