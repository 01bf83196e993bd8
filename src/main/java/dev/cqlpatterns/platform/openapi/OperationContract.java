package dev.cqlpatterns.platform.openapi;

import dev.cqlpatterns.platform.observability.RequestIds;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.OASFactory;
import org.eclipse.microprofile.openapi.models.Components;
import org.eclipse.microprofile.openapi.models.Operation;
import org.eclipse.microprofile.openapi.models.PathItem;
import org.eclipse.microprofile.openapi.models.parameters.Parameter;
import org.eclipse.microprofile.openapi.models.responses.APIResponse;
import org.eclipse.microprofile.openapi.models.responses.APIResponses;

/**
 * What every operation states without its route saying it: the errors each kind of route can give,
 * each a problem; that a route without a security requirement is public; the paging parameters by
 * reference, and all parameters in one order; that a create's answer may replay an earlier one; and
 * on every answer, errors included, what it cost and where the caller's rate limits stand.
 */
final class OperationContract {
    private static final List<Parameter.In> LOCATIONS =
            List.of(Parameter.In.PATH, Parameter.In.QUERY, Parameter.In.HEADER, Parameter.In.COOKIE);

    private static final String IDEMPOTENCY_KEY = "#/components/parameters/" + ApiDefinition.IDEMPOTENCY_KEY;

    private OperationContract() {}

    static void describe(String path, PathItem.HttpMethod method, Operation operation, Components components) {
        referPagingParameters(operation);
        orderParameters(operation, components);
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
            operation.setSecurity(new ArrayList<>());
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
        boolean idempotent = operation.getParameters() != null
                && operation.getParameters().stream().anyMatch(p -> IDEMPOTENCY_KEY.equals(p.getRef()));
        // Errors a feature declares (409, 403...) without a body are problems too.
        target.getAPIResponses().forEach((code, response) -> {
            if ((code.startsWith("4") || code.startsWith("5")) && response.getContent() == null) {
                response.setContent(problem(response.getDescription(), false).getContent());
            }
            if (idempotent && code.startsWith("2")) {
                // A create that takes an Idempotency-Key may answer a retry with the first answer, whichever it was.
                response.addHeader(
                        ApiDefinition.REPLAYED,
                        OASFactory.createHeader().ref("#/components/headers/" + ApiDefinition.REPLAYED));
            }
            // Every answer says what it cost, errors included (a 404 may have read a partition).
            response.addHeader(
                    "X-Partitions-Read", OASFactory.createHeader().ref("#/components/headers/X-Partitions-Read"));
            response.addHeader("X-Statements", OASFactory.createHeader().ref("#/components/headers/X-Statements"));
            response.addHeader(
                    RequestIds.HEADER, OASFactory.createHeader().ref("#/components/headers/" + RequestIds.HEADER));
            // Every route is rate limited, and every answer it gives says where the caller stands.
            SharedComponents.RATE_LIMIT_HEADERS.forEach(header ->
                    response.addHeader(header, OASFactory.createHeader().ref("#/components/headers/" + header)));
        });
    }

    private static void referPagingParameters(Operation operation) {
        if (operation.getParameters() == null) {
            return;
        }
        List<Parameter> parameters = new ArrayList<>();
        for (Parameter parameter : operation.getParameters()) {
            boolean paging = parameter.getIn() == Parameter.In.QUERY
                    && (SharedComponents.LIMIT.equals(parameter.getName())
                            || SharedComponents.CURSOR.equals(parameter.getName()));
            parameters.add(
                    paging
                            ? OASFactory.createParameter().ref("#/components/parameters/" + parameter.getName())
                            : parameter);
        }
        operation.setParameters(parameters);
    }

    /**
     * Parameters in one order on every operation, by location (path, query, header, cookie) and then by name, as
     * SmallRye orders those it writes itself; a reference is placed by the component it names, which must exist.
     * SmallRye puts references to components a filter adds ({@link SharedParameters}) after all the others, so
     * without this a generated client's arguments would move.
     */
    private static void orderParameters(Operation operation, Components components) {
        if (operation.getParameters() == null) {
            return;
        }
        Map<String, Parameter> shared = components.getParameters() == null ? Map.of() : components.getParameters();
        Map<Parameter, Parameter> resolved = new IdentityHashMap<>();
        for (Parameter parameter : operation.getParameters()) {
            Parameter target = parameter.getRef() == null
                    ? parameter
                    : shared.get(parameter.getRef().substring(parameter.getRef().lastIndexOf('/') + 1));
            if (target == null) {
                throw new IllegalStateException("Parameter " + parameter.getRef() + " names no component");
            }
            resolved.put(parameter, target);
        }
        List<Parameter> parameters = new ArrayList<>(operation.getParameters());
        parameters.sort(Comparator.comparing(
                        (Parameter p) -> LOCATIONS.indexOf(resolved.get(p).getIn()))
                .thenComparing(p -> resolved.get(p).getName()));
        operation.setParameters(parameters);
    }

    private static APIResponse problem(String description, boolean retryAfter) {
        APIResponse response = OASFactory.createAPIResponse()
                .description(description)
                .content(OASFactory.createContent()
                        .addMediaType(
                                SharedComponents.PROBLEM_MEDIA,
                                OASFactory.createMediaType()
                                        .schema(OASFactory.createSchema().ref(SharedComponents.PROBLEM_REF))));
        if (retryAfter) {
            response.addHeader("Retry-After", OASFactory.createHeader().ref("#/components/headers/Retry-After"));
        }
        return response;
    }
}
