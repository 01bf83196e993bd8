package dev.cqlpatterns.testsupport;

import static io.restassured.RestAssured.given;

/** The service's own metrics, as Prometheus scrapes them. */
public final class Metrics {
    private Metrics() {}

    /** The text exposition of {@code /q/metrics}, now. */
    public static String exposition() {
        return given().when().get("/q/metrics").then().statusCode(200).extract().asString();
    }
}
