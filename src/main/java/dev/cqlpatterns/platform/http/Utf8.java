package dev.cqlpatterns.platform.http;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/**
 * Well-formed UTF-8, as the JSON and URL rules require: no overlong forms ({@code C0 AF} is not
 * "/"), no encoded surrogates, no truncated sequences. Jackson's own decoder accepts overlong forms,
 * so bodies are checked here first ({@link Utf8Bodies}).
 */
public final class Utf8 {

    private Utf8() {}

    public static boolean isWellFormed(byte[] bytes) {
        try {
            StandardCharsets.UTF_8
                    .newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes));
            return true;
        } catch (CharacterCodingException e) {
            return false;
        }
    }
}
