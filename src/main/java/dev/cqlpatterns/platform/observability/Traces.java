package dev.cqlpatterns.platform.observability;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;

/**
 * The request's W3C trace, as Quarkus's OpenTelemetry extension keeps it in the request's Vert.x
 * context: the same id is in the {@code traceparent} it propagates, in every log line's MDC
 * ({@code traceId}), in the access log and in every problem+json answer.
 */
public final class Traces {
    private Traces() {}

    /** The current trace id (32 hex digits), or null when there is no trace (tracing off). */
    public static String currentTraceId() {
        SpanContext context = Span.current().getSpanContext();
        return context.isValid() ? context.getTraceId() : null;
    }
}
