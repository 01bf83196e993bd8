package dev.cqlpatterns.platform.openapi;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.observability.RequestIds;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.PagingSettings;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * Writes into the contract what every route shares, so no route can forget it: the Problem
 * schema and the error responses each kind of route can give, the accounting headers on every
 * answer, and one description of the paging parameters. Applied by SmallRye OpenAPI to the
 * document it serves at /q/openapi.
 *
 * <p>It also states, once for every response, which properties a client always gets: every
 * property of a schema that a response carries is {@code required}, because Jackson writes every
 * record component, null or not (the service sets no serialization inclusion; nulls are written
 * as null, and {@code nullable} says where that happens). A schema whose class leaves properties
 * out (a class-level {@code @JsonInclude(NON_NULL)}, such as User) lists what it always sends with
 * {@code @Schema(requiredProperties = ...)}, and that list is kept. Request schemas are left alone:
 * there {@code required} is what the client must send. Every response of the tests is validated
 * against the contract, so a property the service leaves out fails them.
 */
public class ContractFilter implements OASFilter {
    private static final String PROBLEM_REF = "#/components/schemas/Problem";
    private static final String PROBLEM_MEDIA = "application/problem+json";
    private static final String LIMIT = "limit";
    private static final String CURSOR = "cursor";
    private static final int INSTANT_MAX = 30;
    private static final int UUID_LENGTH = 36;
    /** An anchored pattern that is one character class repeated {n,m} times. */
    private static final Pattern REPEATED_CLASS =
            Pattern.compile("\\^\\[(?:[^\\]\\\\]|\\\\.)+]\\{(\\d+)(?:,(\\d+))?}\\$");
    /** IETF draft RateLimit header fields, as platform.limits.RateLimits sends them. */
    private static final List<String> RATE_LIMIT_HEADERS =
            List.of("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset");

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Components components = openAPI.getComponents();
        if (components == null) {
            components = OASFactory.createComponents();
            openAPI.setComponents(components);
        }
        components.addSchema(
                "FieldError",
                OASFactory.createSchema()
                        .type(List.of(Schema.SchemaType.OBJECT))
                        .required(List.of("field", "message"))
                        .addProperty(
                                "field",
                                string("Field or parameter name", "content")
                                        .maxLength(Problem.FIELD_MAX)
                                        .pattern(Text.SINGLE_LINE))
                        .addProperty("message", shown("What is wrong with it", "must not be blank")));
        components.addSchema(
                "Problem",
                OASFactory.createSchema()
                        .type(List.of(Schema.SchemaType.OBJECT))
                        .description("RFC 9457 problem detail, sent as application/problem+json")
                        .required(List.of("type", "title", "status"))
                        .addProperty(
                                "type",
                                string(
                                                "Stable identifier of the kind of problem",
                                                "urn:cql-patterns:problem:validation")
                                        .pattern("^urn:cql-patterns:problem:[a-z-]{1,40}$")
                                        .maxLength(65))
                        .addProperty("title", shown("Short summary of the kind of problem", "Invalid request"))
                        .addProperty(
                                "status",
                                OASFactory.createSchema()
                                        .type(List.of(Schema.SchemaType.INTEGER))
                                        .format("int32")
                                        .description("HTTP status")
                                        .examples(List.of(400)))
                        .addProperty(
                                "detail", shown("What is wrong with this request", "limit: must be between 1 and 500"))
                        .addProperty(
                                "errors",
                                OASFactory.createSchema()
                                        .type(List.of(Schema.SchemaType.ARRAY))
                                        .description("Fields that failed validation, when the problem is about fields")
                                        .items(OASFactory.createSchema().ref("#/components/schemas/FieldError")))
                        .addProperty(
                                "traceId",
                                OASFactory.createSchema()
                                        .type(List.of(Schema.SchemaType.STRING))
                                        .pattern("^[0-9a-f]{32}$")
                                        .description(
                                                "W3C trace id of this request (when the service traces): quote it when reporting "
                                                        + "the problem, it finds the request's spans and log lines")
                                        .examples(List.of("4bf92f3577b34da6a3ce929d0e0e4736"))));
        components.addHeader("X-Partitions-Read", intHeader("Partitions of Cassandra this request read"));
        components.addHeader("X-Statements", intHeader("CQL statements this request ran"));
        components.addHeader(
                "Retry-After", intHeader("Seconds to wait before retrying").required(true));
        components.addHeader(
                RequestIds.HEADER,
                OASFactory.createHeader()
                        .required(true)
                        .description(
                                "Names this request in the service's access log: the caller's own X-Request-Id when it is "
                                        + "1 to 64 of A-Z a-z 0-9 . _ : -, else the request's trace id or a random UUID")
                        .schema(OASFactory.createSchema()
                                .type(List.of(Schema.SchemaType.STRING))
                                .pattern("^[A-Za-z0-9._:-]{1,64}$")
                                .maxLength(64)
                                .examples(List.of("4bf92f3577b34da6a3ce929d0e0e4736"))));
        components.addHeader(
                RATE_LIMIT_HEADERS.get(0),
                intHeader("Size of the caller's budget this answer reports "
                        + "(reads, writes or body bytes; per caller and replica)"));
        components.addHeader(RATE_LIMIT_HEADERS.get(1), intHeader("What is left of that budget"));
        components.addHeader(RATE_LIMIT_HEADERS.get(2), intHeader("Seconds until that budget is full again"));
        components.addHeader(
                "WWW-Authenticate",
                OASFactory.createHeader()
                        .required(true)
                        .description("The authentication scheme the route wants: Bearer")
                        .schema(OASFactory.createSchema()
                                .type(List.of(Schema.SchemaType.STRING))
                                .pattern("^Bearer\\b")
                                .maxLength(64)
                                .examples(List.of("Bearer"))));
        addPagingParameters(components);
        boundBuiltInStrings(components);

        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            return;
        }
        openAPI.getPaths()
                .getPathItems()
                .forEach((path, item) ->
                        item.getOperations().forEach((method, operation) -> describe(path, method, operation)));
        requireWhatResponsesAlwaysSend(openAPI);
        everySchema(openAPI, ContractFilter::restrictString);
    }

    /**
     * The schemas SmallRye writes for java.time.Instant and java.util.UUID get the length of what the
     * service writes and reads: Jackson's ISO-8601 instant (at most 30 characters for years up to 9999,
     * which is what the service's clock and timeuuids give; Instant.parse of a longer one is refused by
     * the contract, which is stricter there) and a UUID's 36.
     */
    private static void boundBuiltInStrings(Components components) {
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

    /**
     * Marks every property of every object schema a response can carry (through $ref, properties,
     * items, additionalProperties and allOf) as required, unless the schema lists its own. Under a
     * serialization inclusion other than ALWAYS (quarkus.jackson.serialization-inclusion), nullable
     * properties would be left out when null, so only the non-nullable ones would be required.
     */
    private static void requireWhatResponsesAlwaysSend(OpenAPI openAPI) {
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

    /**
     * One description of paging for every list, from the service's own settings: each list's
     * {@code limit} and {@code cursor} become references to these.
     */
    private static void addPagingParameters(Components components) {
        Config config = ConfigProvider.getConfig();
        int max = config.getOptionalValue("cql-patterns.paging.max-limit", Integer.class)
                .orElse(Integer.parseInt(PagingSettings.MAX_LIMIT));
        int dflt = config.getOptionalValue("cql-patterns.paging.default-limit", Integer.class)
                .orElse(Integer.parseInt(PagingSettings.DEFAULT_LIMIT));
        components.addParameter(
                LIMIT,
                OASFactory.createParameter()
                        .name(LIMIT)
                        .in(Parameter.In.QUERY)
                        .description("Page size, 1 to " + max + " (default " + dflt + ")")
                        .schema(OASFactory.createSchema()
                                .type(List.of(Schema.SchemaType.INTEGER))
                                .format("int32")
                                .minimum(BigDecimal.ONE)
                                .maximum(BigDecimal.valueOf(max))
                                .defaultValue(dflt))
                        .example(dflt));
        components.addParameter(
                CURSOR,
                OASFactory.createParameter()
                        .name(CURSOR)
                        .in(Parameter.In.QUERY)
                        .description(
                                "The next value of the previous page, unchanged; absent for the first page. Opaque and "
                                        + "signed: a cursor that was altered, or that belongs to another list, is answered with 400")
                        .schema(OASFactory.createSchema()
                                .type(List.of(Schema.SchemaType.STRING))
                                .pattern("^(?:" + Cursors.PATTERN.substring(1, Cursors.PATTERN.length() - 1) + ")?$")
                                .maxLength(Cursors.MAX_LENGTH)));
    }

    private static void referPagingParameters(Operation operation) {
        if (operation.getParameters() == null) {
            return;
        }
        List<Parameter> parameters = new ArrayList<>();
        for (Parameter parameter : operation.getParameters()) {
            boolean paging = parameter.getIn() == Parameter.In.QUERY
                    && (LIMIT.equals(parameter.getName()) || CURSOR.equals(parameter.getName()));
            parameters.add(
                    paging
                            ? OASFactory.createParameter().ref("#/components/parameters/" + parameter.getName())
                            : parameter);
        }
        operation.setParameters(parameters);
    }

    private static void describe(String path, PathItem.HttpMethod method, Operation operation) {
        referPagingParameters(operation);
        APIResponses responses = operation.getResponses();
        if (responses == null) {
            responses = OASFactory.createAPIResponses();
            operation.setResponses(responses);
        }
        boolean hasInput = operation.getRequestBody() != null
                || (operation.getParameters() != null
                        && !operation.getParameters().isEmpty());
        boolean secured =
                operation.getSecurity() != null && !operation.getSecurity().isEmpty();
        if (!secured) {
            // Say explicitly that the route is public, rather than leaving it to a global default.
            operation.setSecurity(new java.util.ArrayList<>());
        }
        Map<String, String> errors = new LinkedHashMap<>();
        if (hasInput) {
            errors.put("400", "Invalid input: the problem says which field or parameter and why");
        }
        if (secured) {
            errors.put("401", "Missing, invalid or expired bearer token");
        }
        if (path.contains("{")) {
            errors.put("404", "No such resource, or not one the caller may see");
        }
        if (operation.getRequestBody() != null) {
            errors.put("413", "Request body over the size limit");
            errors.put("415", "Request body is not application/json");
        }
        errors.put("406", "The Accept header excludes application/json");
        errors.put(
                "429",
                "Over the caller's rate limit (per token subject, or client address without a token): "
                        + "nothing was done; retry after Retry-After seconds");
        errors.put(
                "500",
                "Unexpected failure, or a read the database refused for the dead rows it would scan (type "
                        + "read-refused; retrying does not help): logged, no internals in the body");
        errors.put("503", "Cassandra unreachable or too slow; retry after Retry-After seconds");
        APIResponses target = responses;
        errors.forEach((code, description) -> {
            APIResponse existing = target.getAPIResponse(code);
            // SmallRye adds body-less 401/403 to secured operations; ours always carry a problem.
            if (existing == null || existing.getContent() == null) {
                target.addAPIResponse(code, problem(description, code.equals("503") || code.equals("429")));
            }
            if (code.equals("401")) {
                // RFC 9110 11.6.1: a 401 names the scheme it wants (Problems sends "Bearer").
                target.getAPIResponse(code)
                        .addHeader(
                                "WWW-Authenticate",
                                OASFactory.createHeader().ref("#/components/headers/WWW-Authenticate"));
            }
        });
        // Errors a feature declares (409, 403...) without a body are problems too.
        target.getAPIResponses().forEach((code, response) -> {
            if ((code.startsWith("4") || code.startsWith("5")) && response.getContent() == null) {
                response.setContent(problem(response.getDescription(), false).getContent());
            }
            // Every answer says what it cost, errors included (a 404 may have read a partition).
            response.addHeader(
                    "X-Partitions-Read", OASFactory.createHeader().ref("#/components/headers/X-Partitions-Read"));
            response.addHeader("X-Statements", OASFactory.createHeader().ref("#/components/headers/X-Statements"));
            response.addHeader(
                    RequestIds.HEADER, OASFactory.createHeader().ref("#/components/headers/" + RequestIds.HEADER));
            // Every route is rate limited, and every answer it gives says where the caller stands.
            RATE_LIMIT_HEADERS.forEach(header ->
                    response.addHeader(header, OASFactory.createHeader().ref("#/components/headers/" + header)));
        });
    }

    private static APIResponse problem(String description, boolean retryAfter) {
        APIResponse response = OASFactory.createAPIResponse()
                .description(description)
                .content(OASFactory.createContent()
                        .addMediaType(
                                PROBLEM_MEDIA,
                                OASFactory.createMediaType()
                                        .schema(OASFactory.createSchema().ref(PROBLEM_REF))));
        if (retryAfter) {
            response.addHeader("Retry-After", OASFactory.createHeader().ref("#/components/headers/Retry-After"));
        }
        return response;
    }

    private static Schema string(String description, String example) {
        return OASFactory.createSchema()
                .type(List.of(Schema.SchemaType.STRING))
                .description(description)
                .examples(List.of(example));
    }

    /** Text a problem shows: one line, cut to its limit (Problem's constructor makes it so). */
    private static Schema shown(String description, String example) {
        return string(description, example).maxLength(Problem.TEXT_MAX).pattern(Text.SINGLE_LINE);
    }

    private static Header intHeader(String description) {
        return OASFactory.createHeader()
                .description(description)
                .schema(OASFactory.createSchema()
                        .type(List.of(Schema.SchemaType.INTEGER))
                        .format("int32"));
    }
}
