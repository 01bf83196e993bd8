package dev.cqlpatterns.observability;

import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.RecordedSpans;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.ExtractableResponse;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * W3C trace context in, a server span per request with a client span per CQL statement under it,
 * and the trace id in every problem+json answer and in X-Request-Id.
 */
@QuarkusTest
class TracingTest {
    private static final AttributeKey<String> QUERY = AttributeKey.stringKey("db.query.text");

    @Inject
    RecordedSpans spans;

    private static String hex(int bytes) {
        byte[] b = new byte[bytes];
        ThreadLocalRandom.current().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    @Test
    void should_continue_the_callers_trace_and_name_it_in_the_problem() {
        String traceId = hex(16);
        ExtractableResponse<Response> answer = problem(
                        given().header("traceparent", "00-" + traceId + "-" + hex(8) + "-01")
                                .when()
                                .get("/pastes/not-an-id"),
                        400)
                .extract();
        assertThat(answer.<String>path("traceId")).isEqualTo(traceId);
        assertThat(answer.header("X-Request-Id")).isEqualTo(traceId);
    }

    @Test
    void should_give_every_problem_a_trace_id_of_its_own() {
        String first = given().when()
                .get("/pastes/not-an-id")
                .then()
                .statusCode(400)
                .extract()
                .path("traceId");
        String second = given().when()
                .get("/pastes/not-an-id")
                .then()
                .statusCode(400)
                .extract()
                .path("traceId");
        assertThat(first).matches("[0-9a-f]{32}");
        assertThat(second).matches("[0-9a-f]{32}").isNotEqualTo(first);
    }

    @Test
    void should_keep_a_request_id_the_gateway_gave_and_refuse_one_that_is_not_a_plain_token() {
        given().header("X-Request-Id", "gw-1234.abc")
                .when()
                .get("/pastes/not-an-id")
                .then()
                .header("X-Request-Id", "gw-1234.abc");
        String odd = given().header("X-Request-Id", "x\" injected=1")
                .when()
                .get("/pastes/not-an-id")
                .then()
                .extract()
                .header("X-Request-Id");
        assertThat(odd).doesNotContain("injected").matches("[0-9a-f-]{32,36}");
    }

    @Test
    void should_trace_each_cql_statement_under_the_request_with_its_cql_but_never_its_values() throws Exception {
        String traceId = hex(16);
        String marker = "body-" + hex(8);
        given().header("traceparent", "00-" + traceId + "-" + hex(8) + "-01")
                .contentType(ContentType.JSON)
                .body(Map.of("title", "traced", "body", marker, "private", false))
                .when()
                .post("/pastes")
                .then()
                .statusCode(201);

        List<SpanData> trace = List.of();
        for (int i = 0; i < 100 && trace.stream().noneMatch(s -> s.getKind() == SpanKind.SERVER); i++) {
            Thread.sleep(50);
            trace = spans.ofTrace(traceId);
        }
        SpanData server = trace.stream()
                .filter(s -> s.getKind() == SpanKind.SERVER)
                .findFirst()
                .orElseThrow();
        List<SpanData> statements = trace.stream()
                .filter(s -> s.getKind() == SpanKind.CLIENT
                        && "cassandra".equals(s.getAttributes().get(AttributeKey.stringKey("db.system"))))
                .toList();
        assertThat(statements).isNotEmpty().allSatisfy(s -> {
            assertThat(s.getParentSpanId()).isEqualTo(server.getSpanId());
            assertThat(s.getAttributes().get(QUERY)).isNotBlank().doesNotContain(marker);
            assertThat(s.getAttributes().get(AttributeKey.longKey("cql.partitions_read")))
                    .isNotNull();
        });
        assertThat(statements).anySatisfy(s -> assertThat(s.getName()).matches("(INSERT|BATCH|UPDATE) \\w+(\\.\\w+)?"));
    }
}
