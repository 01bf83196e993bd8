package dev.cqlpatterns.messenger;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Map;

/**
 * Sends over the JDK's HTTP client, for tests that send thousands: REST Assured compiles a Groovy
 * path per call, which made the client, not the service, the bottleneck (JFR: most CPU samples in
 * Groovy).
 */
final class FastSends {
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http = HttpClient.newHttpClient();
    private final URL root;

    FastSends(URL root) {
        this.root = root;
    }

    /** One message from the holder of {@code token}; its id. */
    String send(String token, String conversationId, String content) {
        try {
            HttpRequest request = HttpRequest.newBuilder(
                            root.toURI().resolve("conversations/" + conversationId + "/messages"))
                    .header("Authorization", token)
                    .header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(Map.of("content", content))))
                    .build();
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(201);
            return JSON.readTree(response.body()).get("id").asText();
        } catch (IOException | URISyntaxException e) {
            throw new UncheckedIOException(e instanceof IOException io ? io : new IOException(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
