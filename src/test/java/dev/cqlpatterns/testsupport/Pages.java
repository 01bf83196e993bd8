package dev.cqlpatterns.testsupport;

import static io.restassured.RestAssured.given;

import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/** Follows a list's cursors from its first page to its last, as a client does. */
public final class Pages {

    private Pages() {}

    /**
     * Every page of a list (200s only), in order, at most {@code max}: {@code get} sends the
     * request it is given (holding the cursor when there is one) and answers the response.
     */
    public static List<ExtractableResponse<Response>> all(int max, Function<RequestSpecification, Response> get) {
        List<ExtractableResponse<Response>> pages = new ArrayList<>();
        String cursor = null;
        do {
            RequestSpecification request = given();
            if (cursor != null) {
                request.queryParam("cursor", cursor);
            }
            ExtractableResponse<Response> page =
                    get.apply(request).then().statusCode(200).extract();
            pages.add(page);
            cursor = page.jsonPath().getString("next");
        } while (cursor != null && pages.size() < max);
        return pages;
    }
}
