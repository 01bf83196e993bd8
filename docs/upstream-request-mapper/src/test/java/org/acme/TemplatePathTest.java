package org.acme;

import static io.restassured.RestAssured.given;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.vertx.http.runtime.filters.Filters;
import io.vertx.core.http.impl.HttpServerRequestInternal;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/**
 * An anonymous request to a public endpoint fails no authentication, yet Quarkus REST's filter at
 * priority 199 (ResteasyReactiveRecorder#defaultAuthFailureHandler) maps its path with a RequestMapper
 * built for this request (ObservabilityIntegrationRecorder#setTemplatePath) before Quarkus REST runs.
 * The probe, a filter at the same priority registered after it, sees the template that work left
 * in the request's Vert.x context.
 */
@QuarkusTest
class TemplatePathTest {
    static final Map<String, Object> SEEN = new ConcurrentHashMap<>();

    @Singleton
    static class Probe {
        void register(@Observes Filters filters) {
            filters.register(rc -> {
                if (rc.request().path().startsWith("/hello/")) {
                    // where ObservabilityUtil.setUrlPathTemplate keeps it: the request's Vert.x context
                    Object template = ((HttpServerRequestInternal) rc.request()).context().getLocal("UrlPathTemplate");
                    SEEN.put("template", String.valueOf(template));
                }
                rc.next();
            }, 199);
        }
    }

    @Test
    void a_request_that_fails_no_authentication_maps_no_path_before_quarkus_rest() {
        given().when().get("/hello/world").then().statusCode(200);
        // Expected: "null" (Quarkus REST names the route itself once it runs).
        // Quarkus 3.34.1 and 3.36.1: "/hello/{name}", computed with a new RequestMapper per request.
        assertEquals("null", SEEN.get("template"));
    }
}
