package dev.cqlpatterns.platform.openapi;

import org.eclipse.microprofile.openapi.OASFilter;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.OpenAPI;

/**
 * Writes into the contract what every route shares, so no route can forget it: the shared
 * components ({@link SharedComponents}), the errors and headers of every operation
 * ({@link OperationContract}), the properties every response always carries
 * ({@link ResponseRequirements}), and bounds on every string ({@link StrictStrings}). Applied by
 * SmallRye OpenAPI to the document it serves at /q/openapi.
 */
public class ContractFilter implements OASFilter {
    @Override
    public void filterOpenAPI(OpenAPI openAPI) {
        Components components = SharedComponents.of(openAPI);
        SharedComponents.addTo(components);
        if (openAPI.getPaths() == null || openAPI.getPaths().getPathItems() == null) {
            StrictStrings.boundBuiltInStrings(components);
            return;
        }
        openAPI.getPaths()
                .getPathItems()
                .forEach((path, item) -> item.getOperations()
                        .forEach((method, operation) ->
                                OperationContract.describe(path, method, operation, components)));
        ResponseRequirements.requireWhatResponsesAlwaysSend(openAPI);
        StrictStrings.apply(openAPI);
    }
}
