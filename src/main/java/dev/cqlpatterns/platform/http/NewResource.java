package dev.cqlpatterns.platform.http;

import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * A 201 Created answer whose Location is the new resource's path, relative to the service's root (a
 * URI reference, RFC 9110 10.2.2). Never made absolute from the request: its host would be the Host
 * header a client chose, echoed back at any length.
 */
public final class NewResource {
    /** The end of a Location's pattern in the contract when the last segment is a UUID. */
    public static final String UUID_PATH = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$";

    private NewResource() {}

    public static <T> RestResponse.ResponseBuilder<T> at(String path) {
        return RestResponse.ResponseBuilder.<T>create(RestResponse.Status.CREATED)
                .header(HttpHeaders.LOCATION, path);
    }
}
