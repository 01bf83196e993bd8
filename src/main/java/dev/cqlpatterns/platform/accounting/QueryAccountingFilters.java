package dev.cqlpatterns.platform.accounting;

import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jboss.resteasy.reactive.server.ServerRequestFilter;
import org.jboss.resteasy.reactive.server.ServerResponseFilter;
import org.jboss.resteasy.reactive.server.SimpleResourceInfo;

/**
 * Puts {@code X-Partitions-Read} and {@code X-Statements} on every API response and records the
 * same figures per route, so the cost a table comment promises can be checked from outside.
 */
public class QueryAccountingFilters {
    public static final String PARTITIONS_HEADER = "X-Partitions-Read";
    public static final String STATEMENTS_HEADER = "X-Statements";
    private static final String STATS_PROPERTY = QueryStats.class.getName();

    @Inject
    MeterRegistry registry;

    /** Each route's two summaries, registered on its first answer: not looked up on every one. */
    private final Map<Route, Summaries> byRoute = new ConcurrentHashMap<>();

    @ServerRequestFilter(preMatching = true)
    public void begin(ContainerRequestContext request) {
        request.setProperty(STATS_PROPERTY, QueryStats.begin());
    }

    @ServerResponseFilter
    public void end(ContainerRequestContext request, ContainerResponseContext response, SimpleResourceInfo resource) {
        QueryStats stats = (QueryStats) request.getProperty(STATS_PROPERTY);
        if (stats == null) {
            return;
        }
        response.getHeaders().putSingle(PARTITIONS_HEADER, stats.partitions());
        response.getHeaders().putSingle(STATEMENTS_HEADER, stats.statements());
        if (resource != null && resource.getResourceClass() != null) {
            Summaries summaries = byRoute.computeIfAbsent(
                    new Route(resource.getResourceClass(), resource.getMethodName()), this::summaries);
            summaries.partitions().record(stats.partitions());
            summaries.statements().record(stats.statements());
        }
    }

    private Summaries summaries(Route route) {
        String name = route.type().getSimpleName() + "." + route.method();
        return new Summaries(
                DistributionSummary.builder("cql.request.partitions.read")
                        .description("Partitions read by one request")
                        .tag("route", name)
                        .register(registry),
                DistributionSummary.builder("cql.request.statements")
                        .description("CQL statements run by one request")
                        .tag("route", name)
                        .register(registry));
    }

    /** A resource method: the service's routes are a fixed set, so the map stays that small. */
    private record Route(Class<?> type, String method) {}

    private record Summaries(DistributionSummary partitions, DistributionSummary statements) {}
}
