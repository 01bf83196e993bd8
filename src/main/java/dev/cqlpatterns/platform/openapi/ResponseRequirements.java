package dev.cqlpatterns.platform.openapi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.media.Schema;

/**
 * States, once for every response, which properties a client always gets: every property of a
 * schema that a response carries is {@code required}, because Jackson writes every record
 * component, null or not (the service sets no serialization inclusion; nulls are written as null,
 * and {@code nullable} says where that happens). A schema whose class leaves properties out (a
 * class-level {@code @JsonInclude(NON_NULL)}, such as User) lists what it always sends with
 * {@code @Schema(requiredProperties = ...)}, and that list is kept. Request schemas are left alone:
 * there {@code required} is what the client must send. Every response of the tests is validated
 * against the contract, so a property the service leaves out fails them.
 */
final class ResponseRequirements {
    private ResponseRequirements() {}

    /**
     * Marks every property of every object schema a response can carry (through $ref, properties,
     * items, additionalProperties and allOf) as required, unless the schema lists its own. Under a
     * serialization inclusion other than ALWAYS (quarkus.jackson.serialization-inclusion), nullable
     * properties would be left out when null, so only the non-nullable ones would be required.
     */
    static void requireWhatResponsesAlwaysSend(OpenAPI openAPI) {
        Map<String, Schema> schemas = openAPI.getComponents().getSchemas();
        if (schemas == null) {
            return;
        }
        boolean nullsWritten = ConfigProvider.getConfig()
                .getOptionalValue("quarkus.jackson.serialization-inclusion", String.class)
                .map(inclusion -> inclusion.equalsIgnoreCase("always"))
                .orElse(true);
        Set<Schema> reached = Collections.newSetFromMap(new IdentityHashMap<>());
        openAPI.getPaths()
                .getPathItems()
                .values()
                .forEach(item -> item.getOperations().values().forEach(operation -> {
                    if (operation.getResponses() == null
                            || operation.getResponses().getAPIResponses() == null) {
                        return;
                    }
                    operation.getResponses().getAPIResponses().values().forEach(response -> {
                        if (response.getContent() != null
                                && response.getContent().getMediaTypes() != null) {
                            response.getContent()
                                    .getMediaTypes()
                                    .values()
                                    .forEach(media -> reach(media.getSchema(), schemas, reached));
                        }
                    });
                }));
        reached.forEach(schema -> requireAll(schema, nullsWritten));
    }

    private static void requireAll(Schema schema, boolean nullsWritten) {
        if (schema.getProperties() == null
                || schema.getProperties().isEmpty()
                || (schema.getRequired() != null && !schema.getRequired().isEmpty())) {
            return;
        }
        List<String> required = new ArrayList<>();
        schema.getProperties().forEach((property, propertySchema) -> {
            // MicroProfile OpenAPI 4 models nullable as a "null" type; SmallRye writes it as nullable: true in 3.0.
            boolean nullable =
                    propertySchema.getType() != null && propertySchema.getType().contains(Schema.SchemaType.NULL);
            if (nullsWritten || !nullable) {
                required.add(property);
            }
        });
        schema.setRequired(required);
    }

    /**
     * Collects the schemas {@code schema} is or refers to, directly or through its parts (properties,
     * items, additionalProperties, allOf): components through their $ref, inline ones as they are.
     */
    private static void reach(Schema schema, Map<String, Schema> schemas, Set<Schema> reached) {
        if (schema == null) {
            return;
        }
        if (schema.getRef() != null) {
            reach(schemas.get(schema.getRef().substring(schema.getRef().lastIndexOf('/') + 1)), schemas, reached);
            return;
        }
        if (!reached.add(schema)) {
            return;
        }
        if (schema.getProperties() != null) {
            schema.getProperties().values().forEach(property -> reach(property, schemas, reached));
        }
        reach(schema.getItems(), schemas, reached);
        reach(schema.getAdditionalPropertiesSchema(), schemas, reached);
        if (schema.getAllOf() != null) {
            schema.getAllOf().forEach(part -> reach(part, schemas, reached));
        }
    }
}
