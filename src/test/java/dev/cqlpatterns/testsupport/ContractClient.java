package dev.cqlpatterns.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
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
import java.util.concurrent.ConcurrentHashMap;
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
    private static final Map<String, String> TOKENS = new ConcurrentHashMap<>();

    private final IntSupplier ports;

    public ContractClient(IntSupplier ports) {
        this.ports = ports;
    }

    /** One request, once; {@code as} signs it, {@code key} is its Idempotency-Key, {@code body} goes as JSON. */
    public HttpResponse<String> send(String method, String path, String as, String key, Object body)
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
            request.header("Authorization", TOKENS.computeIfAbsent(as, Tokens::bearer));
        }
        if (key != null) {
            request.header("Idempotency-Key", key);
        }
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
        assertThat(r.statusCode()).as("%s %s", r.uri(), r.body()).isEqualTo(200);
        return r.body();
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
}
