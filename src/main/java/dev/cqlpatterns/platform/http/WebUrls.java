package dev.cqlpatterns.platform.http;

import java.net.URI;
import java.net.URISyntaxException;

/** What the service takes as a link: an absolute http(s) URL with a host (clicks, attachments). */
public final class WebUrls {

    /** What java.net.URI refuses in a URL: control characters and white space (isSpaceChar). */
    private static final String NOT_URL_CHARS =
            Text.CONTROL_CHARS + "\\x20\\u00A0\\u1680\\u2000-\\u200A\\u2028\\u2029\\u202F\\u205F\\u3000";
    /**
     * The contract's form of {@link #isWebUrl} (ECMA-262 and Java): http or https in any case, an
     * authority with a host name or an IP literal (user info and port allowed), then path, query and
     * fragment without white space. What {@link java.net.URI} checks beyond that (escapes, label rules)
     * only the service checks.
     */
    public static final String PATTERN = "^[Hh][Tt][Tt][Pp][Ss]?://(?:[^@/?#" + NOT_URL_CHARS + "]*@)?"
            + "(?:[A-Za-z0-9][A-Za-z0-9.-]*|\\[[0-9A-Fa-f:.]+\\])(?::[0-9]*)?(?:[/?#][^" + NOT_URL_CHARS + "]*)?$";

    private WebUrls() {}

    public static boolean isWebUrl(String url) {
        if (url == null) {
            return false;
        }
        try {
            URI uri = new URI(url);
            String scheme = uri.getScheme();
            return scheme != null
                    && (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))
                    && uri.getHost() != null
                    && !uri.getHost().isEmpty();
        } catch (URISyntaxException e) {
            return false;
        }
    }
}
