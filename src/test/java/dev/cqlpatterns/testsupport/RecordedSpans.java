package dev.cqlpatterns.testsupport;

import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import jakarta.inject.Singleton;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The spans the service ended, kept in memory for tests (Quarkus adds every SpanProcessor bean to
 * its tracer); the newest 10,000. Tests export nothing anywhere else.
 */
@Singleton
public class RecordedSpans implements SpanProcessor {
    private static final int KEEP = 10_000;
    private final Deque<SpanData> spans = new ArrayDeque<>();

    @Override
    public void onStart(Context parent, ReadWriteSpan span) {}

    @Override
    public boolean isStartRequired() {
        return false;
    }

    @Override
    public synchronized void onEnd(ReadableSpan span) {
        spans.addLast(span.toSpanData());
        if (spans.size() > KEEP) {
            spans.removeFirst();
        }
    }

    @Override
    public boolean isEndRequired() {
        return true;
    }

    /** The ended spans of one trace. */
    public synchronized List<SpanData> ofTrace(String traceId) {
        return spans.stream().filter(s -> s.getTraceId().equals(traceId)).toList();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
