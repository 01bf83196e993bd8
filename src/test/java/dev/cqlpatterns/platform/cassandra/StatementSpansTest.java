package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import io.opentelemetry.api.trace.Span;
import org.junit.jupiter.api.Test;

/** With tracing off a statement starts no span: no tracer is asked, no ids are drawn. */
class StatementSpansTest {
    @Test
    void should_start_no_span_when_tracing_is_off() {
        StatementSpans spans = new StatementSpans();
        spans.tracingOff = true;
        // no tracer: one used would fail the test
        assertThat(spans.start("SELECT * FROM ks.pastes_by_id WHERE id = ?", true, 1, "ks"))
                .isSameAs(Span.getInvalid());
    }
}
