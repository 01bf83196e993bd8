package dev.cqlpatterns.platform.openapi;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.identity.Usernames;
import dev.cqlpatterns.platform.observability.RequestIds;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.PagingSettings;
import java.math.BigDecimal;
import java.util.List;
import org.eclipse.microprofile.config.Config;
import org.eclipse.microprofile.config.ConfigProvider;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.headers.Header;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

/**
 * The components every route refers to: the Problem schema, the accounting, request-id, rate-limit,
 * Retry-After and WWW-Authenticate headers, and the paging parameters, described from the service's
 * own settings.
 */
final class SharedComponents {
    static final String PROBLEM_REF = "#/components/schemas/Problem";
    static final String PROBLEM_MEDIA = "application/problem+json";
    static final String LIMIT = "limit";
    static final String CURSOR = "cursor";
    /** IETF draft RateLimit header fields, as platform.limits.RateLimits sends them. */
    static final List<String> RATE_LIMIT_HEADERS = List.of("RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset");

    private SharedComponents() {}

    /** The document's components, made when it has none yet. */
    static Components of(OpenAPI openAPI) {
        if (openAPI.getComponents() == null) {
            openAPI.setComponents(OASFactory.createComponents());
        }
        return openAPI.getComponents();
    }

    static void addTo(Components components) {
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
        components.addParameter(
                ApiDefinition.CALLER,
                SharedParameters.inPath(
                        "username",
                        "Username; must be the caller",
                        "alice",
                        SharedParameters.string(Usernames.PATTERN)));
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
