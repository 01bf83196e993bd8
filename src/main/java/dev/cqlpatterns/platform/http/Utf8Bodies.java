package dev.cqlpatterns.platform.http;

import dev.cqlpatterns.platform.errors.ProblemException;
import jakarta.ws.rs.ext.Provider;
import jakarta.ws.rs.ext.ReaderInterceptor;
import jakarta.ws.rs.ext.ReaderInterceptorContext;
import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Every request body is well-formed UTF-8 before Jackson reads it: Jackson decodes the overlong
 * {@code C0 AF} as "/", and "a\xC0\xAFb" was stored as "a/b". The body is already buffered in
 * memory (it is bounded by the body limit), so this reads no network and blocks nothing.
 */
@Provider
public class Utf8Bodies implements ReaderInterceptor {

    @Override
    public Object aroundReadFrom(ReaderInterceptorContext context) throws IOException {
        byte[] body = context.getInputStream().readAllBytes();
        if (!Utf8.isWellFormed(body)) {
            throw new ProblemException(
                    400, "malformed-json", "Malformed JSON", "The request body is not well-formed UTF-8", null);
        }
        context.setInputStream(new ByteArrayInputStream(body));
        return context.proceed();
    }
}
