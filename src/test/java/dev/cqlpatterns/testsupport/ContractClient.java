package dev.cqlpatterns.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.restassured.RestAssured;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Requests to the packaged service as a client following the contract sends them: a bearer token per
 * user, a 503 answered again after its Retry-After. {@code ports} picks the port of each request, so
 * one client can spread its traffic over several processes (two revisions, say).
 */
public final class ContractClient {
    /** A client gives up a request it retried this long (none should need it). */
    public static final Duration GIVE_UP_AFTER = Duration.ofMinutes(3);

    static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private final IntSupplier ports;

    public ContractClient(IntSupplier ports) {
        this.ports = ports;
    }

    /**
     * The client of a {@code @QuarkusTest}'s application (the port Quarkus gives REST Assured), for
     * the many requests that only age data (members joining and leaving, pastes created and deleted):
     * without REST Assured, whose own work and contract check cost about as much CPU per call as the
     * service's answer. The feature tests' REST Assured calls check the same requests against the
     * contract.
     */
    public static final ContractClient TEST_APPLICATION = new ContractClient(() -> RestAssured.port);

    /** One request, once; {@code as} signs it, {@code key} is its Idempotency-Key, {@code body} goes as JSON. */
    public HttpResponse<String> send(String method, String path, String as, String key, Object body)
            throws IOException, InterruptedException {
        return send(method, path, as, key, body, Map.of());
    }

    /** One request, once, with {@code headers} besides those of {@link #send(String, String, String, String, Object)}. */
    public HttpResponse<String> send(
            String method, String path, String as, String key, Object body, Map<String, String> headers)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + ports.getAsInt() + path))
                .timeout(Duration.ofSeconds(10))
                .method(
                        method,
                        body == null
                                ? HttpRequest.BodyPublishers.noBody()
                                : HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)));
        if (body != null) {
            request.header("Content-Type", "application/json");
        }
        if (as != null) {
            request.header("Authorization", Tokens.bearer(as));
        }
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
        headers.forEach(request::header);
        return HTTP.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    /** A read, again after Retry-After while it answers 503. */
    public HttpResponse<String> readBack(String path, String as) throws IOException, InterruptedException {
        return untilAnswered("GET", path, as, null, new ArrayList<>());
    }

    /**
     * A request again after Retry-After while the answer is 503 (for at most GIVE_UP_AFTER);
     * {@code statuses} gets every status, the last one answered.
     */
    public HttpResponse<String> untilAnswered(
            String method, String path, String as, Object body, List<Integer> statuses)
            throws IOException, InterruptedException {
        for (long began = System.nanoTime(); ; ) {
            HttpResponse<String> r = send(method, path, as, null, body);
            statuses.add(r.statusCode());
            if (r.statusCode() != 503 || System.nanoTime() - began > GIVE_UP_AFTER.toNanos()) {
                return r;
            }
            Thread.sleep(retryAfterMillis(r));
        }
    }

    /** The body of a 200, failing the test on anything else. */
    public static String ok(HttpResponse<String> r) {
        return expect(200, r);
    }

    /** The body of {@code r}, failing the test unless it answered {@code status}. */
    public static String expect(int status, HttpResponse<String> r) {
        assertThat(r.statusCode())
                .as("%s %s %s", r.request().method(), r.uri(), r.body())
                .isEqualTo(status);
        return r.body();
    }

    /**
     * {@code method path} as {@code as} with {@code body} as JSON, once; its answer's body, failing the
     * test unless it is {@code status}. For a test's own thread: an I/O error fails the test too.
     */
    public String expect(int status, String method, String path, String as, Object body) {
        return expect(status, method, path, as, body, Map.of());
    }

    /** As {@link #expect(int, String, String, String, Object)}, with {@code headers}. */
    public String expect(int status, String method, String path, String as, Object body, Map<String, String> headers) {
        try {
            return expect(status, send(method, path, as, null, body, headers));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** {@code body} read as JSON. */
    public static JsonNode json(String body) {
        try {
            return JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("not JSON: " + body, e);
        }
    }

    /** Retry-After of {@code r} (1 s when there was no answer), at most 2 s so a test does not idle. */
    static long retryAfterMillis(HttpResponse<String> r) {
        long seconds = r == null
                ? 1
                : r.headers().firstValue("Retry-After").map(Long::parseLong).orElse(1L);
        return Math.min(seconds, 2) * 1000;
    }

    public static String enc(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8);
    }

    /** {@code value} as one segment of a path: percent-encoded, a space as %20. */
    public static String segment(String value) {
        return enc(value).replace("+", "%20");
    }
}
