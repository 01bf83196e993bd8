package dev.cqlpatterns.testsupport.fuzz;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Sends a request exactly as given, bytes and all, over one HTTP/1.1 connection and reads the
 * answer. The JDK's HttpClient and REST Assured both refuse or repair what a fuzzer must send
 * (invalid percent-escapes, control characters in header values, a body without Content-Type),
 * and REST Assured's contract filter would fail requests that are invalid on purpose.
 */
public final class RawHttp {
    private static final int TIMEOUT_MILLIS = 15_000;

    /** What came back; headers by lower-case name (the last one of a repeated name). */
    public record Answer(int status, Map<String, String> headers, byte[] body) {
        public String contentType() {
            return headers.getOrDefault("content-type", "");
        }

        public String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    private final String host;
    private final int port;

    public RawHttp(String host, int port) {
        this.host = host;
        this.port = port;
    }

    public Answer send(FuzzRequest request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), TIMEOUT_MILLIS);
            socket.setSoTimeout(TIMEOUT_MILLIS);
            OutputStream out = socket.getOutputStream();
            out.write(request.wire(host + ":" + port));
            out.flush();
            return read(socket.getInputStream());
        }
    }

    private static Answer read(InputStream in) throws IOException {
        String statusLine = line(in);
        if (statusLine == null) {
            throw new IOException("the connection closed before any answer");
        }
        String[] parts = statusLine.split(" ", 3);
        int status = Integer.parseInt(parts[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String header = line(in); header != null && !header.isEmpty(); header = line(in)) {
            int colon = header.indexOf(':');
            headers.put(
                    header.substring(0, colon).trim().toLowerCase(Locale.ROOT),
                    header.substring(colon + 1).trim());
        }
        byte[] body;
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream chunks = new ByteArrayOutputStream();
            for (int size = Integer.parseInt(line(in).split(";")[0].trim(), 16);
                    size > 0;
                    size = Integer.parseInt(line(in).split(";")[0].trim(), 16)) {
                chunks.write(in.readNBytes(size));
                line(in);
            }
            body = chunks.toByteArray();
        } else if (headers.containsKey("content-length")) {
            body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
        } else {
            body = in.readAllBytes(); // Connection: close was asked for
        }
        return new Answer(status, headers, body);
    }

    /** One CRLF-terminated line as Latin-1, or null at the end of the stream. */
    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                byte[] all = bytes.toByteArray();
                int length = all.length > 0 && all[all.length - 1] == '\r' ? all.length - 1 : all.length;
                return new String(all, 0, length, StandardCharsets.ISO_8859_1);
            }
            bytes.write(b);
        }
        return bytes.size() == 0 ? null : bytes.toString(StandardCharsets.ISO_8859_1);
    }
}
