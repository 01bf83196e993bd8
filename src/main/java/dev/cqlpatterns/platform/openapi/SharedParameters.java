package dev.cqlpatterns.platform.openapi;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.media.Schema;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;

/**
 * Parameters that several routes share, described once as contract components that each route names with
 * {@code @Parameter(ref = …)}. MicroProfile OpenAPI declares components only in the one
 * {@code @OpenAPIDefinition}, which knows no feature's rules, so each feature declares its own from the
 * rules that also check them: a subclass annotated {@code @OpenApiFilter(OpenApiFilter.RunStage.BUILD)}
 * that calls {@link #share} in its constructor. Quarkus runs an annotated filter only when the class itself names
 * {@code implements OASFilter}, so each subclass says it again. A function build has no contract, and runs
 * none of them.
 */
public abstract class SharedParameters implements OASFilter {
    private final Map<String, Parameter> parameters = new LinkedHashMap<>();

    /**
     * Adds a component under {@code key}, a name no route parameter has, since several routes' {@code id}s
     * differ. {@link ContractFilter}, which SmallRye runs after every annotated filter, bounds its strings and
     * orders the parameters that refer to it like all others.
     */
    protected final void share(String key, Parameter parameter) {
        parameters.put(key, parameter);
    }

    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        parameters.forEach(SharedComponents.of(openAPI)::addParameter);
    }

    /** A required path parameter. */
    public static Parameter inPath(String name, String description, String example, Schema schema) {
        return parameter(Parameter.In.PATH, name, description, example, schema);
    }

    /** A required header. */
    public static Parameter inHeader(String name, String description, String example, Schema schema) {
        return parameter(Parameter.In.HEADER, name, description, example, schema);
    }

    /** A string matching {@code pattern}. */
    public static Schema string(String pattern) {
        return OASFactory.createSchema().type(List.of(Schema.SchemaType.STRING)).pattern(pattern);
    }

    /** A UUID, as SmallRye describes a {@code java.util.UUID} parameter. */
    public static Schema uuid() {
        return OASFactory.createSchema().ref("#/components/schemas/UUID");
    }

    private static Parameter parameter(
            Parameter.In in, String name, String description, String example, Schema schema) {
        return OASFactory.createParameter()
                .name(name)
                .in(in)
                .required(true)
                .description(description)
                .example(example)
                .schema(schema);
    }
}
