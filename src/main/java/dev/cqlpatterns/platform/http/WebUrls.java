package dev.cqlpatterns.platform.http;

import java.net.URI;
import java.net.URISyntaxException;

/** What the service takes as a link: an absolute http(s) URL with a host (clicks, attachments). */
public final class WebUrls {

    private WebUrls() {
    }

    public static boolean isWebUrl(String url) {
        if (url == null) {
            return false;
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            return scheme != null && (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                    && uri.getHost() != null && !uri.getHost().isEmpty();
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
