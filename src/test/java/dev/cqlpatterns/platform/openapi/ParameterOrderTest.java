package dev.cqlpatterns.platform.openapi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.OpenAPI;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.junit.jupiter.api.Test;

/**
 * SmallRye writes a reference to a component that a feature's filter adds after every other parameter; the
 * contract orders each operation's parameters by location and name all the same, so a generated client's
 * arguments stay where they are.
 */
class ParameterOrderTest {

    @Test
    void should_place_a_shared_parameter_by_its_location_and_name() {
        Operation operation = OASFactory.createOperation()
                .addParameter(inline(Parameter.In.HEADER, "Idempotency-Key"))
                .addParameter(inline(Parameter.In.PATH, "username"))
                .addParameter(inline(Parameter.In.QUERY, "from"))
                .addParameter(OASFactory.createParameter().ref("#/components/parameters/ThingId"));
        OpenAPI openAPI = document("/things/{id}/{username}", operation);
        new SharedParameters() {
            {
                share("ThingId", inPath("id", "Thing id", "t-1", string("^[a-z0-9-]{1,10}$")));
            }
        }.filterOpenAPI(openAPI);

        new ContractFilter().filterOpenAPI(openAPI);

        assertThat(operation.getParameters())
                .extracting(p -> p.getRef() != null ? p.getRef() : p.getIn() + " " + p.getName())
                .containsExactly(
                        "#/components/parameters/ThingId", "path username", "query from", "header Idempotency-Key");
        assertThat(openAPI.getComponents()
                        .getParameters()
                        .get("ThingId")
                        .getSchema()
                        .getMaxLength())
                .as("the shared parameter's string is bounded like every other")
                .isEqualTo(10);
    }

    @Test
    void should_refuse_a_reference_to_a_parameter_no_filter_added() {
        Operation operation = OASFactory.createOperation()
                .addParameter(OASFactory.createParameter().ref("#/components/parameters/Missing"));
        OpenAPI openAPI = document("/things/{id}", operation);

        assertThatThrownBy(() -> new ContractFilter().filterOpenAPI(openAPI))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("#/components/parameters/Missing");
    }

    private static Parameter inline(Parameter.In in, String name) {
        return OASFactory.createParameter().in(in).name(name).schema(SharedParameters.string("^[a-z]{1,8}$"));
    }

    private static OpenAPI document(String path, Operation operation) {
        return OASFactory.createOpenAPI()
                .paths(OASFactory.createPaths()
                        .addPathItem(path, OASFactory.createPathItem().GET(operation)));
    }
}
