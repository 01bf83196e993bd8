package dev.cqlpatterns.platform.http;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.platform.errors.Problems;
import io.quarkus.runtime.configuration.MemorySize;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Refuses a body whose declared length is over {@code quarkus.http.limits.max-body-size} with a
 * 413 problem before any of it is read. (Quarkus enforces the same limit on chunked bodies, with
 * a plain 413.)
 */
@ApplicationScoped
public class BodyLimit {

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    MemorySize maxBodySize;

    void install(@Observes Router router) {
        long max = maxBodySize.asLongValue();
        String body = new JsonObject()
                .put("type", Problems.type("payload-too-large"))
                .put("title", "Payload too large")
                .put("status", 413)
                .put("detail", "The request body is over the limit of " + max + " bytes")
                .encode();
        router.route().order(Integer.MIN_VALUE).handler(rc -> {
            String length = rc.request().getHeader("Content-Length");
            if (length != null && declaredLength(length) > max) {
                rc.response().setStatusCode(413)
                        .putHeader("Content-Type", Problem.MEDIA_TYPE)
                        .putHeader("Connection", "close")
                        .end(body);
                return;
            }
            rc.next();
        });
    }

    private static long declaredLength(String header) {
        try {
            return Long.parseLong(header.trim());
        } catch (NumberFormatException e) {
            return -1;
        }
    }
}
