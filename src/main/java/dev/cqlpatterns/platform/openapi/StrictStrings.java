package dev.cqlpatterns.platform.openapi;

import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.media.Schema;

/** Every string of the contract as bounded as what the service accepts and writes. */
final class StrictStrings {
    private static final int INSTANT_MAX = 30;
    private static final int UUID_LENGTH = 36;
    /** An anchored pattern that is one character class repeated {n,m} times. */
    private static final Pattern REPEATED_CLASS =
            Pattern.compile("\\^\\[(?:[^\\]\\\\]|\\\\.)+]\\{(\\d+)(?:,(\\d+))?}\\$");

    private StrictStrings() {}

    /** Bounds every string of the document, built-in schemas included. */
    static void apply(OpenAPI openAPI) {
        boundBuiltInStrings(openAPI.getComponents());
        everySchema(openAPI, StrictStrings::restrictString);
    }

    /**
     * The schemas SmallRye writes for java.time.Instant and java.util.UUID get the length of what the
     * service writes and reads: Jackson's ISO-8601 instant (at most 30 characters for years up to 9999,
     * which is what the service's clock and timeuuids give; Instant.parse of a longer one is refused by
     * the contract, which is stricter there) and a UUID's 36.
     */
    static void boundBuiltInStrings(Components components) {
        if (components.getSchemas() == null) {
            return;
        }
        Schema instant = components.getSchemas().get("Instant");
        if (instant != null) {
            instant.maxLength(INSTANT_MAX);
        }
        Schema uuid = components.getSchemas().get("UUID");
        if (uuid != null) {
            uuid.maxLength(UUID_LENGTH).minLength(UUID_LENGTH);
        }
    }

    /**
     * One string schema made as precise as what it already says:
     * <ul>
     * <li>a string that refers to a schema besides saying things of its own (a field with its own description,
     * written as {@code allOf} that schema in OpenAPI 3.0) keeps no type of its own: the referenced schema's
     * type, format and limits are the field's;</li>
     * <li>a pattern that is one character class repeated {n,m} (or {n}) times, anchored, bounds the length too,
     * so it states it (SmallRye copies {@code @Pattern} but not Hibernate's {@code @CodePointLength});</li>
     * <li>a uuid is 36 characters, and a date-time at most {@value #INSTANT_MAX}, as for the built-in schemas.</li>
     * </ul>
     */
    private static void restrictString(Schema schema) {
        if (schema.getType() == null || !schema.getType().contains(Schema.SchemaType.STRING)) {
            return;
        }
        if (schema.getRef() != null) {
            boolean nullable = schema.getType().contains(Schema.SchemaType.NULL);
            schema.setType(nullable ? List.of(Schema.SchemaType.NULL) : null);
            return;
        }
        if (schema.getMaxLength() == null && "uuid".equals(schema.getFormat())) {
            schema.maxLength(UUID_LENGTH);
        }
        if (schema.getMaxLength() == null && "date-time".equals(schema.getFormat())) {
            schema.maxLength(INSTANT_MAX);
        }
        if (schema.getPattern() != null && schema.getMaxLength() == null) {
            Matcher repeated = REPEATED_CLASS.matcher(schema.getPattern());
            if (repeated.matches()) {
                schema.maxLength(Integer.parseInt(repeated.group(repeated.group(2) == null ? 1 : 2)));
            }
        }
    }

    /** Runs {@code action} on every schema of the document: components, parameters, bodies, responses, headers, and their parts. */
    private static void everySchema(OpenAPI openAPI, Consumer<Schema> action) {
        Set<Schema> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        Consumer<Schema> walk = new Consumer<>() {
            @Override
            public void accept(Schema schema) {
                if (schema == null || !seen.add(schema)) {
                    return;
                }
                action.accept(schema);
                if (schema.getProperties() != null) {
                    schema.getProperties().values().forEach(this);
                }
                accept(schema.getItems());
                accept(schema.getAdditionalPropertiesSchema());
                for (List<Schema> parts : Arrays.asList(schema.getAllOf(), schema.getAnyOf(), schema.getOneOf())) {
                    if (parts != null) {
                        parts.forEach(this);
                    }
                }
            }
        };
        Components components = openAPI.getComponents();
        if (components.getSchemas() != null) {
            components.getSchemas().values().forEach(walk);
        }
        if (components.getParameters() != null) {
            components.getParameters().values().forEach(parameter -> walk.accept(parameter.getSchema()));
        }
        if (components.getHeaders() != null) {
            components.getHeaders().values().forEach(header -> walk.accept(header.getSchema()));
        }
        openAPI.getPaths()
                .getPathItems()
                .values()
                .forEach(item -> item.getOperations().values().forEach(operation -> {
                    if (operation.getParameters() != null) {
                        operation.getParameters().forEach(parameter -> walk.accept(parameter.getSchema()));
                    }
                    if (operation.getRequestBody() != null
                            && operation.getRequestBody().getContent() != null
                            && operation.getRequestBody().getContent().getMediaTypes() != null) {
                        operation
                                .getRequestBody()
                                .getContent()
                                .getMediaTypes()
                                .values()
                                .forEach(media -> walk.accept(media.getSchema()));
                    }
                    if (operation.getResponses() != null
                            && operation.getResponses().getAPIResponses() != null) {
                        operation.getResponses().getAPIResponses().values().forEach(response -> {
                            if (response.getHeaders() != null) {
                                response.getHeaders().values().forEach(header -> walk.accept(header.getSchema()));
                            }
                            if (response.getContent() != null
                                    && response.getContent().getMediaTypes() != null) {
                                response.getContent()
                                        .getMediaTypes()
                                        .values()
                                        .forEach(media -> walk.accept(media.getSchema()));
                            }
                        });
                    }
                }));
    }
}
