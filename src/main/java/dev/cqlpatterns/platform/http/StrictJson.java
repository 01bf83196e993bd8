package dev.cqlpatterns.platform.http;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.deser.std.StringDeserializer;
import com.fasterxml.jackson.databind.exc.InvalidFormatException;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.type.LogicalType;
import io.quarkus.jackson.ObjectMapperCustomizer;
import jakarta.inject.Singleton;
import java.io.IOException;

/**
 * JSON bodies are parsed strictly, for every route at once; each refusal is a 400 naming the field:
 * <ul>
 * <li>the types the contract says: Jackson's default would store {"tags": [1, 2]} as "1" and "2",
 * a name of true as "true", a zip of "75001" as a number and an age of 30.7 as 30;</li>
 * <li>one document: trailing garbage or a second document after it is refused;</li>
 * <li>no duplicate keys ({"body":"a","body":"b"}: which one did the client mean?);</li>
 * <li>no unknown properties: a misspelt {@code expiresin} must not make a paste that never expires;</li>
 * <li>no lone surrogates in strings ({@code "\ud800"}): they are no text and cannot be stored as
 * UTF-8.</li>
 * </ul>
 * Invalid UTF-8 bytes (overlong forms included) are refused by Jackson's own UTF-8 decoder.
 */
@Singleton
public class StrictJson implements ObjectMapperCustomizer {

    @Override
    public void customize(ObjectMapper mapper) {
        mapper.coercionConfigFor(LogicalType.Textual)
                .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        for (LogicalType type : new LogicalType[] {LogicalType.Integer, LogicalType.Float, LogicalType.Boolean}) {
            mapper.coercionConfigFor(type).setCoercion(CoercionInputShape.String, CoercionAction.Fail);
        }
        // an age of 30.7 is not silently 30, a private of 1 not silently true
        mapper.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        mapper.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail);

        mapper.enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        mapper.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        mapper.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        mapper.registerModule(
                new SimpleModule("strict-strings").addDeserializer(String.class, new WellFormedStrings()));
    }

    /** Strings whose UTF-16 is well formed: every surrogate in a pair. */
    static final class WellFormedStrings extends StringDeserializer {
        @Override
        public String deserialize(JsonParser p, DeserializationContext ctxt) throws IOException {
            String value = super.deserialize(p, ctxt);
            if (value != null && !isWellFormed(value)) {
                throw InvalidFormatException.from(p, "a lone surrogate is not text", value, String.class);
            }
            return value;
        }
    }

    /** True when every surrogate of {@code value} is one half of a pair. */
    public static boolean isWellFormed(String value) {
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (Character.isHighSurrogate(c)
                    && i + 1 < value.length()
                    && Character.isLowSurrogate(value.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                return false;
            }
        }
        return true;
    }
}
