package dev.cqlpatterns.testsupport.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * One request as it goes on the wire. The target is the request line's path and query, already
 * percent-encoded (a char above 0x7F is written as its UTF-8 bytes, raw); header values and the body
 * are bytes, so they can hold what no HTTP client library lets through.
 *
 * @param operation the contract's operation this request was made from, e.g. {@code PUT /courses/{courseId}}
 * @param mutations what was done to the valid request, in words, to read a failure
 * @param belowApplication true when a fault is one the HTTP stack refuses before any route, with a
 *        bare 400 and no problem+json (see {@link MalformedRequests})
 */
public record FuzzRequest(
        String operation,
        String method,
        String target,
        List<Header> headers,
        byte[] body,
        List<String> mutations,
        boolean belowApplication) {

    /** A header; the value's bytes are sent as they are. */
    public record Header(String name, byte[] value) {
        public static Header of(String name, String value) {
            return new Header(name, value.getBytes(StandardCharsets.UTF_8));
        }
    }

    public FuzzRequest {
        headers = List.copyOf(headers);
        mutations = List.copyOf(mutations);
    }

    /** The request line's bytes: what a 4 KiB limit on the initial line counts. */
    public int requestLineLength() {
        return (method + " " + target + " HTTP/1.1").getBytes(StandardCharsets.UTF_8).length;
    }

    /** All header bytes, with the Host, Connection and Content-Length lines the client adds. */
    public int headersLength() {
        int length = 100;
        for (Header header : headers) {
            length += header.name().length() + 4 + header.value().length;
        }
        return length;
    }

    byte[] wire(String authority) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.writeBytes((method + " " + target + " HTTP/1.1\r\nHost: " + authority + "\r\nConnection: close\r\n")
                .getBytes(StandardCharsets.UTF_8));
        for (Header header : headers) {
            out.writeBytes((header.name() + ": ").getBytes(StandardCharsets.US_ASCII));
            out.writeBytes(header.value());
            out.writeBytes(new byte[] {'\r', '\n'});
        }
        if (body != null) {
            out.writeBytes(("Content-Length: " + body.length + "\r\n").getBytes(StandardCharsets.US_ASCII));
        }
        out.writeBytes(new byte[] {'\r', '\n'});
        if (body != null) {
            out.writeBytes(body);
        }
        return out.toByteArray();
    }

    /** The request as text for a failure message: non-printable bytes escaped, long runs cut. */
    public String show() {
        StringBuilder text = new StringBuilder(operation)
                .append("  [")
                .append(String.join("; ", mutations))
                .append(belowApplication ? "; refused below the application" : "")
                .append("]\n  ")
                .append(method)
                .append(' ')
                .append(cut(target))
                .append('\n');
        for (Header header : headers) {
            text.append("  ")
                    .append(header.name())
                    .append(": ")
                    .append(cut(escape(header.value())))
                    .append('\n');
        }
        if (body != null) {
            text.append("  body (")
                    .append(body.length)
                    .append(" bytes): ")
                    .append(cut(escape(body)))
                    .append('\n');
        }
        return text.toString();
    }

    private static String escape(byte[] bytes) {
        StringBuilder text = new StringBuilder();
        for (byte b : bytes) {
            int c = b & 0xFF;
            text.append(c >= 0x20 && c < 0x7F ? String.valueOf((char) c) : String.format("\\x%02X", c));
        }
        return text.toString();
    }

    private static String cut(String text) {
        return text.length() <= 300
                ? text
                : text.substring(0, 200) + "...(" + text.length() + " chars)..." + text.substring(text.length() - 60);
    }
}
