package dev.cqlpatterns.testsupport.fuzz;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The operations of openapi.yaml, with their parameters and body schemas, {@code $ref}s resolved. */
public final class ApiContract {
    private static final List<String> METHODS = List.of("get", "put", "post", "delete", "patch");

    /** A parameter: {@code in} is path, query or header; the schema is resolved. */
    public record Param(String name, String in, boolean required, JsonNode schema) {
        public String type() {
            return schema.path("type").asText("string");
        }

        public String format() {
            return schema.path("format").asText("");
        }

        public String pattern() {
            return schema.path("pattern").asText("");
        }
    }

    /**
     * @param body the request body's schema, resolved; null when the operation takes no body
     * @param auth true when the operation needs a bearer token
     */
    public record Operation(String method, String path, List<Param> params, JsonNode body, boolean auth) {
        public String id() {
            return method + " " + path;
        }
    }

    private final JsonNode root;

    private ApiContract(JsonNode root) {
        this.root = root;
    }

    public static ApiContract read(Path openapiYaml) {
        try {
            return new ApiContract(new ObjectMapper(new YAMLFactory()).readTree(openapiYaml.toFile()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public List<Operation> operations() {
        List<Operation> operations = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> paths = root.path("paths").fields(); paths.hasNext(); ) {
            Map.Entry<String, JsonNode> path = paths.next();
            for (String method : METHODS) {
                JsonNode op = path.getValue().get(method);
                if (op == null) {
                    continue;
                }
                List<Param> params = new ArrayList<>();
                for (JsonNode p : op.path("parameters")) {
                    JsonNode param = resolve(p);
                    params.add(new Param(
                            param.path("name").asText(),
                            param.path("in").asText(),
                            param.path("required").asBoolean(false),
                            resolve(param.path("schema"))));
                }
                JsonNode body = op.path("requestBody")
                        .path("content")
                        .path("application/json")
                        .get("schema");
                boolean auth = op.path("security").size() > 0;
                operations.add(new Operation(
                        method.toUpperCase(Locale.ROOT),
                        path.getKey(),
                        List.copyOf(params),
                        body == null ? null : resolve(body),
                        auth));
            }
        }
        return List.copyOf(operations);
    }

    /** Follows {@code $ref}, and folds {@code allOf} into one schema, recursively for properties and items. */
    public JsonNode resolve(JsonNode node) {
        if (node == null || !node.isObject()) {
            return node;
        }
        if (node.has("$ref")) {
            JsonNode target = root;
            for (String part : node.get("$ref").asText().substring(2).split("/")) {
                target = target.path(part);
            }
            return resolve(target);
        }
        ObjectNode merged = ((ObjectNode) node).deepCopy();
        if (merged.has("allOf")) {
            JsonNode allOf = merged.remove("allOf");
            for (JsonNode part : allOf) {
                JsonNode resolved = resolve(part);
                resolved.fields().forEachRemaining(f -> {
                    if (!merged.has(f.getKey())) {
                        merged.set(f.getKey(), f.getValue());
                    }
                });
            }
        }
        if (merged.has("properties")) {
            JsonNode declared = merged.get("properties");
            ObjectNode properties = merged.putObject("properties");
            declared.fields().forEachRemaining(f -> properties.set(f.getKey(), resolve(f.getValue())));
        }
        if (merged.has("items")) {
            merged.set("items", resolve(merged.get("items")));
        }
        return merged;
    }
}
