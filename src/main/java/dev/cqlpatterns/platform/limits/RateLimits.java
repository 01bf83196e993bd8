package dev.cqlpatterns.platform.limits;

import dev.cqlpatterns.platform.errors.Problems;
import dev.cqlpatterns.platform.identity.Caller;
import io.github.bucket4j.BucketConfiguration;
import io.github.bucket4j.ConsumptionProbe;
import io.github.bucket4j.distributed.BucketProxy;
import io.quarkus.runtime.configuration.MemorySize;
import io.quarkus.security.identity.CurrentIdentityAssociation;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import java.lang.reflect.Method;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;

/**
 * Rate limits of every API route, one mechanism: before a matched route runs, its caller's budget
 * is charged (reads for GET and HEAD, writes for the rest, and body bytes on routes marked
 * {@link ChargesBodyBytes}). Over budget, the route does not run at all: 429 problem+json with
 * Retry-After. Every limited answer says where the caller stands in RateLimit-Limit,
 * RateLimit-Remaining and RateLimit-Reset.
 *
 * <p>The caller is the token's subject when the request carries a valid bearer token, else the
 * client address (the forwarded one when HTTP_BEHIND_PROXY=true). Each budget of each caller is its
 * own token bucket (bucket4j), so one caller's requests never draw on another's. The buckets live in
 * this replica's memory ({@link TokenBuckets}): the limits are per replica.
 * cql-patterns.rate-limits.enabled (RATE_LIMITS_ENABLED) turns them all off.
 */
public class RateLimits {
    public static final String LIMIT = "RateLimit-Limit";
    public static final String REMAINING = "RateLimit-Remaining";
    public static final String RESET = "RateLimit-Reset";
    private static final String STANDING = RateLimits.class.getName();

    /** Where a caller stands in one budget after a charge. */
    record Standing(
            String budget, long limit, long remaining, long resetSeconds, long retryAfterSeconds, boolean allowed) {

        /** The share left: the budget closest to running out is the one a client should see. */
        double left() {
            return (double) remaining / limit;
        }
    }

    @Inject
    TokenBuckets tokenBuckets;

    @Inject
    RateLimitSettings settings;

    @Inject
    CurrentIdentityAssociation identities;

    @ConfigProperty(name = "quarkus.http.limits.max-body-size")
    MemorySize maxBodySize;

    @ServerRequestFilter
    public Uni<Response> charge(ContainerRequestContext request, ResourceInfo resource, HttpServerRequest http) {
        if (!settings.enabled()) {
            return Uni.createFrom().nullItem();
        }
        String method = request.getMethod();
        boolean read = "GET".equals(method) || "HEAD".equals(method);
        Method route = resource.getResourceMethod();
        long bodyBytes = route != null && route.isAnnotationPresent(ChargesBodyBytes.class) ? bodyBytes(request) : 0;
        String address =
                http.remoteAddress() == null ? "unknown" : http.remoteAddress().host();
        return identities
                .getDeferredIdentity()
                .map(Caller::usernameOf)
                // An invalid token is answered 401 by the route's security check; until then it is anonymous.
                .onFailure()
                .recoverWithItem(Optional.empty())
                .map(user -> user.map(u -> "user:" + u).orElse("address:" + address))
                .map(caller -> {
                    Standing standing =
                            read ? take(caller, "reads", settings.reads(), 1) : takeWrite(caller, bodyBytes);
                    request.setProperty(STANDING, standing);
                    return standing.allowed() ? null : refused(standing);
                });
    }

    @ServerResponseFilter
    public void report(ContainerRequestContext request, ContainerResponseContext response) {
        if (request.getProperty(STANDING) instanceof Standing standing) {
            response.getHeaders().putSingle(LIMIT, standing.limit());
            response.getHeaders().putSingle(REMAINING, standing.remaining());
            response.getHeaders().putSingle(RESET, standing.resetSeconds());
        }
    }

    /** A write: body bytes first (when charged), then one write; a refused write gives its bytes back. */
    private Standing takeWrite(String caller, long bodyBytes) {
        if (bodyBytes == 0) {
            return take(caller, "writes", settings.writes(), 1);
        }
        Standing bytes = take(caller, "body-bytes", settings.bodyBytes(), bodyBytes);
        if (!bytes.allowed()) {
            return bytes;
        }
        Standing writes = take(caller, "writes", settings.writes(), 1);
        if (!writes.allowed()) {
            bucket(caller, "body-bytes", settings.bodyBytes())
                    .addTokens(Math.min(bodyBytes, settings.bodyBytes().capacity()));
            return writes;
        }
        return writes.left() <= bytes.left() ? writes : bytes;
    }

    private Standing take(String caller, String name, RateLimitSettings.Budget budget, long tokens) {
        // A body larger than the whole budget costs the whole budget, not a wait that never ends.
        ConsumptionProbe probe =
                bucket(caller, name, budget).tryConsumeAndReturnRemaining(Math.min(tokens, budget.capacity()));
        return new Standing(
                name,
                budget.capacity(),
                probe.getRemainingTokens(),
                seconds(probe.getNanosToWaitForReset()),
                Math.max(1, seconds(probe.getNanosToWaitForRefill())),
                probe.isConsumed());
    }

    private BucketProxy bucket(String caller, String name, RateLimitSettings.Budget budget) {
        return tokenBuckets
                .proxies()
                .builder()
                .build(
                        name + "|" + caller,
                        () -> BucketConfiguration.builder()
                                .addLimit(limit -> limit.capacity(budget.capacity())
                                        .refillGreedy(budget.capacity(), budget.period()))
                                .build());
    }

    /** The declared length; a body without one (chunked) is charged the largest body the service takes. */
    private long bodyBytes(ContainerRequestContext request) {
        String length = request.getHeaderString(HttpHeaders.CONTENT_LENGTH);
        try {
            return length == null ? maxBodySize.asLongValue() : Math.max(0, Long.parseLong(length.trim()));
        } catch (NumberFormatException e) {
            return maxBodySize.asLongValue();
        }
    }

    private static Response refused(Standing standing) {
        return Response.fromResponse(Problems.problem(
                        429,
                        "rate-limited",
                        "Too many requests",
                        "Over this caller's " + standing.budget() + " budget of " + standing.limit() + "; retry after "
                                + standing.retryAfterSeconds() + " seconds"))
                .header(HttpHeaders.RETRY_AFTER, standing.retryAfterSeconds())
                .header(LIMIT, standing.limit())
                .header(REMAINING, standing.remaining())
                .header(RESET, standing.resetSeconds())
                .build();
    }

    private static long seconds(long nanos) {
        return (nanos + TimeUnit.SECONDS.toNanos(1) - 1) / TimeUnit.SECONDS.toNanos(1);
    }
}
