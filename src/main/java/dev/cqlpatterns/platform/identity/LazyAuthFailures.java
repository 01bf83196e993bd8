package dev.cqlpatterns.platform.identity;

import io.quarkus.vertx.http.runtime.filters.Filters;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * Keeps Quarkus's default auth-failure handler out of every request, so that Quarkus REST's filter
 * behind authentication does not build a new request mapper on every request to name the route for
 * metrics and traces (docs/upstream-request-mapper.md: the report, its reproducer and figures).
 *
 * <p>Nothing here needs that handler. Authentication is lazy ({@code quarkus.http.auth.proactive=false})
 * and no HTTP permission policy asks for an identity, so an identity is only resolved inside Quarkus
 * REST, whose entry drops the handler in any case: a failed token reaches the exception mappers
 * (problem+json), and the route's own observability handler names it in metrics and traces.
 */
@Singleton
public class LazyAuthFailures {
    /** Where Quarkus's authentication filter leaves the handler (HttpSecurityRecorder). */
    public static final String HANDLER = "io.quarkus.vertx.http.auth-failure-handler";

    /** Quarkus's authentication filter's priority: filters run by priority, equal ones in order. */
    static final int AUTHENTICATION = 200;

    void register(@Observes Filters filters) {
        // Quarkus registers its own filters before the application's, so at the same priority this
        // runs right after authentication and before Quarkus REST's filter at 199.
        filters.register(
                rc -> {
                    rc.remove(HANDLER);
                    rc.next();
                },
                AUTHENTICATION);
    }
}
