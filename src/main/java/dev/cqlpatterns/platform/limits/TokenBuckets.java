package dev.cqlpatterns.platform.limits;

import com.github.benmanes.caffeine.cache.Caffeine;
import io.github.bucket4j.caffeine.CaffeineProxyManager;
import io.github.bucket4j.distributed.proxy.ProxyManager;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;

/**
 * Every caller's token buckets in this replica's memory: a Caffeine map bounded by
 * cql-patterns.rate-limits.max-callers, each bucket kept an hour past its last full refill. Memory
 * access only: charging a bucket never blocks an event loop.
 */
@ApplicationScoped
public class TokenBuckets {
    private final ProxyManager<String> proxies;

    @Inject
    public TokenBuckets(RateLimitSettings settings) {
        this.proxies = new CaffeineProxyManager<>(
                Caffeine.newBuilder().maximumSize(settings.maxCallers()), Duration.ofHours(1));
    }

    ProxyManager<String> proxies() {
        return proxies;
    }
}
