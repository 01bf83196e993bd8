package dev.cqlpatterns.contract;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.client.ApiClient;
import dev.cqlpatterns.client.api.RingApi;
import dev.cqlpatterns.client.model.Ring;
import io.quarkus.test.common.http.TestHTTPResource;
import io.quarkus.test.junit.QuarkusTest;
import java.net.URI;
import java.net.URL;
import org.junit.jupiter.api.Test;

/**
 * Drives the running service only through the Java client generated from openapi.yaml at build
 * time, as a user of the service would.
 */
@QuarkusTest
class GeneratedClientJourneyTest {

    @TestHTTPResource("/")
    URL service;

    private ApiClient client() {
        ApiClient client = new ApiClient();
        client.updateBaseUri(URI.create(service.toString()).resolve("/").toString().replaceAll("/$", ""));
        return client;
    }

    @Test
    void should_read_the_ring_through_the_generated_client() throws Exception {
        Ring ring = new RingApi(client()).tokenRingRing();
        assertThat(ring.getNodes()).isNotEmpty();
        assertThat(ring.getRanges()).hasSize(ring.getNodes().get(0).getRanges());
    }
}
