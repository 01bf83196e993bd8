package dev.cqlpatterns.platform.http;

import jakarta.ws.rs.ext.ParamConverter;
import jakarta.ws.rs.ext.ParamConverterProvider;
import jakarta.ws.rs.ext.Provider;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Ids and numbers in paths, queries and headers are ASCII: Java's parsers take any Unicode digit,
 * so a uuid written with fullwidth digits reached, changed and deleted the same paste as the real
 * one, and {@code limit=٥} meant 5. A value that is not plain ASCII is refused as bad input (400).
 */
@Provider
public class AsciiParams implements ParamConverterProvider {
    private static final Pattern UUID_TEXT =
            Pattern.compile("[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern INTEGER_TEXT = Pattern.compile("[+-]?[0-9]{1,19}");

    private static final ParamConverter<UUID> UUIDS = converter(UUID_TEXT, UUID::fromString, UUID::toString);
    private static final ParamConverter<Integer> INTEGERS = converter(INTEGER_TEXT, Integer::valueOf, String::valueOf);
    private static final ParamConverter<Long> LONGS = converter(INTEGER_TEXT, Long::valueOf, String::valueOf);

    @Override
    @SuppressWarnings("unchecked")
    public <T> ParamConverter<T> getConverter(Class<T> rawType, Type genericType, Annotation[] annotations) {
        if (rawType == UUID.class) {
            return (ParamConverter<T>) UUIDS;
        }
        if (rawType == Integer.class || rawType == int.class) {
            return (ParamConverter<T>) INTEGERS;
        }
        if (rawType == Long.class || rawType == long.class) {
            return (ParamConverter<T>) LONGS;
        }
        return null;
    }

    private static <T> ParamConverter<T> converter(
            Pattern text, java.util.function.Function<String, T> parse, java.util.function.Function<T, String> format) {
        return new ParamConverter<>() {
            @Override
            public T fromString(String value) {
                if (value == null) {
                    return null;
                }
                if (!text.matcher(value).matches()) {
                    throw new IllegalArgumentException("not an ASCII value of the parameter's type");
                }
                return parse.apply(value);
            }

            @Override
            public String toString(T value) {
                return format.apply(value);
            }
        };
    }
}
