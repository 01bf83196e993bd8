package dev.cqlpatterns.platform.observability;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import java.time.Duration;
import java.util.stream.Stream;

/**
 * Histogram buckets for the HTTP server's request timer, so the dashboard and the p99 alert can
 * compute quantiles across pods ({@code http_server_requests_seconds_bucket}). A fixed, short
 * list (11 buckets per route and status) rather than Micrometer's percentile histogram (about 70).
 */
public class LatencyBuckets {
    static final String HTTP_SERVER_REQUESTS = "http.server.requests";
    static final Duration[] BOUNDS = Stream.of(5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000)
            .map(Duration::ofMillis)
            .toArray(Duration[]::new);

    @Produces
    @Singleton
    MeterFilter httpServerBuckets() {
        double[] nanos = Stream.of(BOUNDS).mapToDouble(Duration::toNanos).toArray();
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                if (!HTTP_SERVER_REQUESTS.equals(id.getName())) {
                    return config;
                }
                return DistributionStatisticConfig.builder()
                        .serviceLevelObjectives(nanos)
                        .build()
                        .merge(config);
            }
        };
    }
}
