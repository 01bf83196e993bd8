package dev.cqlpatterns.platform.observability;

import io.quarkus.vertx.http.runtime.filters.Filters;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Pattern;

/**
 * Gives every answer an {@code X-Request-Id}, which the access log prints: the caller's (or the
 * Gateway's) own when it is a plain token, else the request's trace id, else a random one. A
 * header that is not a plain token (log injection, a secret pasted into it) is never echoed.
 */
@Singleton
public class RequestIds {
    public static final String HEADER = "X-Request-Id";
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._:-]{1,64}");

    void register(@Observes Filters filters) {
        // Before every other filter, so even a request refused early (rate limit, auth) carries it.
        filters.register(
                rc -> {
                    rc.response().putHeader(HEADER, of(rc.request().getHeader(HEADER)));
                    rc.next();
                },
                1000);
    }

    /** The id of a request that sent {@code given} as its X-Request-Id (null when it sent none). */
    public static String of(String given) {
        if (given != null && PLAIN.matcher(given).matches()) {
            return given;
        }
        String traceId = Traces.currentTraceId();
        return traceId != null ? traceId : random().toString();
    }

    /**
     * A random (version 4) UUID from the thread's own generator: a request id names a request in the
     * logs and grants nothing, so it needs no SecureRandom, whose draws were 1 to 2 % of a saturated
     * service's samples.
     */
    static UUID random() {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long high = (random.nextLong() & ~0xF000L) | 0x4000L;
        long low = (random.nextLong() & ~(0x3L << 62)) | (0x2L << 62);
        return new UUID(high, low);
    }
}
