package dev.cqlpatterns.platform.cassandra;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.api.trace.Tracer;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * The OpenTelemetry client span of each statement {@link Cql} runs, a child of the request's span:
 * its prepared CQL (placeholders, never the bound values), keyspace, table, operation, the
 * partitions it reads and whether it is idempotent.
 */
@ApplicationScoped
class StatementSpans {
    private static final Pattern TABLE = Pattern.compile("(?i)\\b(?:FROM|INTO|UPDATE)\\s+(?:\\w+\\.)?(\\w+)");

    @Inject
    Tracer tracer;

    /**
     * Tracing off (OTEL_SDK_DISABLED, the default of bin/run): Quarkus still hands out an SDK tracer
     * whose every span draws random ids and takes its attributes before it is dropped, for each
     * statement (about 3 % of a saturated service's samples); with tracing off no span is started.
     */
    @ConfigProperty(name = "quarkus.otel.sdk.disabled", defaultValue = "false")
    boolean tracingOff;

    /** Span names by statement text: the prepared statements (and their batches) are a fixed set. */
    private final Map<String, SpanNames> spanNames = new ConcurrentHashMap<>();

    /**
     * A client span for one statement of {@code keyspace}, started now; end it with {@link #end}. The
     * invalid span when tracing is off.
     */
    Span start(String cql, Boolean idempotent, int partitions, String keyspace) {
        if (tracingOff) {
            return Span.getInvalid();
        }
        // Operation and table depend on the statement's text only: derived once per statement, not
        // with a regex on every execution (this runs for every statement, traced or not).
        SpanNames names = cql == null ? SpanNames.NONE : spanNames.computeIfAbsent(cql, SpanNames::of);
        String operation = names.operation();
        String table = names.table();
        String name = operation == null
                ? "CQL " + keyspace
                : operation + " " + (table == null ? keyspace : keyspace + "." + table);
        var builder = tracer.spanBuilder(name)
                .setSpanKind(SpanKind.CLIENT)
                .setAttribute("db.system", "cassandra")
                .setAttribute("db.system.name", "cassandra")
                .setAttribute("db.namespace", keyspace)
                .setAttribute("cql.partitions_read", partitions);
        if (cql != null) {
            builder.setAttribute("db.query.text", cql);
        }
        if (operation != null) {
            builder.setAttribute("db.operation.name", operation);
        }
        if (table != null) {
            builder.setAttribute("db.collection.name", table);
        }
        if (idempotent != null) {
            builder.setAttribute("db.cassandra.idempotence", idempotent);
        }
        return builder.startSpan();
    }

    static void end(Span span, Throwable failure) {
        if (failure != null) {
            span.setStatus(StatusCode.ERROR, failure.getClass().getSimpleName());
            span.setAttribute("error.type", failure.getClass().getName());
        }
        span.end();
    }

    /** What a span says of a statement's text. */
    private record SpanNames(String operation, String table) {
        static final SpanNames NONE = new SpanNames(null, null);

        static SpanNames of(String cql) {
            Matcher m = TABLE.matcher(cql);
            return new SpanNames(operationOf(cql), m.find() ? m.group(1) : null);
        }
    }

    static String operationOf(String cql) {
        String trimmed = cql.stripLeading();
        if (trimmed.regionMatches(true, 0, "BEGIN", 0, 5)) {
            return "BATCH";
        }
        int end = 0;
        while (end < trimmed.length() && Character.isLetter(trimmed.charAt(end))) {
            end++;
        }
        return end == 0 ? null : trimmed.substring(0, end).toUpperCase(java.util.Locale.ROOT);
    }
}
