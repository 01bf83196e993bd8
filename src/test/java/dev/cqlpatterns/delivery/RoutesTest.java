package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPBackendRef;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPPathMatch;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteFilter;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteMatch;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRouteRule;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * The HTTPRoutes against the contract: every operation of openapi.yaml reaches exactly one
 * backend, the function group whose packages hold the operation's class (or the one always-on
 * Service), with Gateway API's matching rules; nothing else is routed.
 */
class RoutesTest {
    /** net-gateway-api's local Gateway Service for Istio (functions/httproute.yaml). */
    static final String KNATIVE_LOCAL_GATEWAY = "knative-local-gateway";

    static final String KNATIVE_LOCAL_GATEWAY_NAMESPACE = "istio-system";
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch", "head", "options");

    /** An operation of the contract; operationId is {@code ClassName_method}. */
    record Operation(String method, String path, String operationId) {
        /** The path with a value in each template parameter, as a request would have it. */
        String request() {
            return path.replaceAll("\\{[^}]+}", "x");
        }

        FunctionGroup group() {
            String className = operationId.substring(0, operationId.indexOf('_'));
            List<FunctionGroup> owners = Arrays.stream(FunctionGroup.values())
                    .filter(g ->
                            g.packages().stream().anyMatch(pkg -> exists("dev.cqlpatterns." + pkg + "." + className)))
                    .toList();
            assertThat(owners)
                    .as("function groups whose packages hold " + className + " (" + this + ")")
                    .hasSize(1);
            return owners.get(0);
        }
    }

    @ParameterizedTest
    @FieldSource("dev.cqlpatterns.delivery.FunctionsTest#FUNCTION_OVERLAYS")
    void should_route_every_operation_to_the_function_of_its_class(String overlay) {
        assertThat(misrouted(
                        RenderedOverlay.of(overlay),
                        op -> "function cql-patterns-" + op.group().id()))
                .isEmpty();
    }

    @Test
    void should_catch_an_operation_routed_to_another_group() {
        String yaml = RenderedOverlay.kustomize(RenderedOverlay.ROOT.resolve("k8s/overlays/prod"));
        String wrong = yaml.replace("hostname: cql-patterns-pastebin.", "hostname: cql-patterns-songs.");
        assertThat(wrong).isNotEqualTo(yaml);
        List<String> problems = misrouted(
                RenderedOverlay.parse("prod, pastes to songs", wrong),
                op -> "function cql-patterns-" + op.group().id());
        assertThat(problems)
                .isNotEmpty()
                .allMatch(p -> p.contains("/pastes"))
                .anyMatch(p -> p.contains("CreatePaste_create"));
    }

    @Test
    void should_route_every_operation_to_the_one_service_when_always_on() {
        RenderedOverlay rendered = RenderedOverlay.of("prod-deployment");
        String service = rendered.one(Service.class).getMetadata().getName();
        assertThat(misrouted(rendered, op -> "service " + service)).isEmpty();
    }

    @ParameterizedTest
    @FieldSource("dev.cqlpatterns.delivery.RenderedOverlay#OVERLAYS")
    void should_route_nothing_outside_the_contract(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        for (String internal :
                List.of("/q/health/live", "/q/health/ready", "/q/metrics", "/q/openapi", "/", "/ringing")) {
            assertThat(rules(rendered, "GET", internal))
                    .as(internal + " routed")
                    .isEmpty();
        }
        for (HTTPRoute route : rendered.all(HTTPRoute.class)) {
            assertThat(route.getSpec().getParentRefs())
                    .isNotEmpty()
                    .allSatisfy(parent -> assertThat(parent.getKind()).isEqualTo("Gateway"));
            for (HTTPRouteRule rule : route.getSpec().getRules()) {
                assertThat(rule.getMatches())
                        .isNotEmpty()
                        .allSatisfy(m -> assertThat(m.getPath().getType()).isEqualTo("PathPrefix"));
            }
        }
        // Every prefix a function group claims is routed, and to that group in the function overlays.
        for (FunctionGroup group : FunctionGroup.values()) {
            for (String prefix : group.pathPrefixes()) {
                assertThat(rules(rendered, "GET", prefix)).as(prefix).hasSize(1);
            }
        }
    }

    /**
     * What is wrong with the routing of the contract's operations, one line each: routed by no
     * rule or by several, to no backend or several, or to another backend than {@code expected}.
     */
    static List<String> misrouted(RenderedOverlay rendered, Function<Operation, String> expected) {
        List<String> problems = new ArrayList<>();
        for (Operation op : operations()) {
            List<Rule> rules = rules(rendered, op.method(), op.request());
            if (rules.size() != 1) {
                problems.add(op + " is routed by " + rules.size() + " rules");
                continue;
            }
            String backend = backend(rendered, rules.get(0));
            if (!backend.equals(expected.apply(op))) {
                problems.add(op + " goes to " + backend + ", not " + expected.apply(op));
            }
        }
        return problems;
    }

    record Rule(HTTPRoute route, HTTPRouteRule rule) {}

    /** The rules, of all the overlay's HTTPRoutes, with a match for this request. */
    static List<Rule> rules(RenderedOverlay rendered, String method, String path) {
        return rendered.all(HTTPRoute.class).stream()
                .flatMap(route -> route.getSpec().getRules().stream().map(rule -> new Rule(route, rule)))
                .filter(r -> r.rule().getMatches().stream().anyMatch(m -> matches(m, method, path)))
                .toList();
    }

    /** Gateway API matching: PathPrefix compares whole path elements ({@code /ring} matches {@code /ring/x}, not {@code /ringing}). */
    static boolean matches(HTTPRouteMatch match, String method, String path) {
        if (match.getMethod() != null && !match.getMethod().equalsIgnoreCase(method)) {
            return false;
        }
        HTTPPathMatch pathMatch = match.getPath();
        String type = pathMatch == null || pathMatch.getType() == null ? "PathPrefix" : pathMatch.getType();
        String value = pathMatch == null || pathMatch.getValue() == null ? "/" : pathMatch.getValue();
        return switch (type) {
            case "Exact" -> path.equals(value);
            case "PathPrefix" -> {
                String prefix = value.endsWith("/") ? value.substring(0, value.length() - 1) : value;
                yield prefix.isEmpty() || path.equals(prefix) || path.startsWith(prefix + "/");
            }
            default -> throw new AssertionError("match type " + type + " is not checked here");
        };
    }

    /**
     * Where a rule sends requests: {@code function <Knative Service>} for the local Gateway with the
     * Host rewritten to a function of the same namespace, {@code service <name>} for a Service.
     */
    static String backend(RenderedOverlay rendered, Rule rule) {
        List<HTTPBackendRef> refs = rule.rule().getBackendRefs();
        if (refs == null || refs.size() != 1) {
            return (refs == null ? 0 : refs.size()) + " backends";
        }
        HTTPBackendRef ref = refs.get(0);
        if (ref.getKind() != null && !"Service".equals(ref.getKind())) {
            return "a " + ref.getKind();
        }
        String namespace = rule.route().getMetadata().getNamespace();
        if (KNATIVE_LOCAL_GATEWAY.equals(ref.getName()) && KNATIVE_LOCAL_GATEWAY_NAMESPACE.equals(ref.getNamespace())) {
            List<String> hosts = (rule.rule().getFilters() == null
                            ? List.<HTTPRouteFilter>of()
                            : rule.rule().getFilters())
                    .stream()
                            .filter(f -> "URLRewrite".equals(f.getType()))
                            .map(f -> f.getUrlRewrite().getHostname())
                            .toList();
            if (hosts.size() != 1) {
                return "the local Gateway with " + hosts.size() + " Host rewrites";
            }
            String[] host = hosts.get(0).split("\\.", 3);
            boolean function = host.length == 3
                    && host[1].equals(namespace)
                    && host[2].equals("svc.cluster.local")
                    && rendered.all(io.fabric8.knative.serving.v1.Service.class).stream()
                            .anyMatch(s -> s.getMetadata().getName().equals(host[0]));
            return function ? "function " + host[0] : "no function at " + hosts.get(0);
        }
        boolean local = ref.getNamespace() == null || ref.getNamespace().equals(namespace);
        boolean exists = rendered.all(Service.class).stream()
                .anyMatch(s -> s.getMetadata().getName().equals(ref.getName())
                        && s.getSpec().getPorts().stream()
                                .anyMatch(p -> p.getPort().equals(ref.getPort())));
        return local && exists
                ? "service " + ref.getName()
                : "no Service " + ref.getNamespace() + "/" + ref.getName() + ":" + ref.getPort();
    }

    static List<Operation> operations() {
        JsonNode contract;
        try {
            contract = new ObjectMapper(new YAMLFactory())
                    .readTree(Files.readString(RenderedOverlay.ROOT.resolve("openapi.yaml")));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        List<Operation> operations = new ArrayList<>();
        contract.path("paths")
                .fields()
                .forEachRemaining(path -> path.getValue().fields().forEachRemaining(method -> {
                    if (METHODS.contains(method.getKey())) {
                        operations.add(new Operation(
                                method.getKey().toUpperCase(),
                                path.getKey(),
                                method.getValue().path("operationId").asText()));
                    }
                }));
        assertThat(operations)
                .isNotEmpty()
                .allSatisfy(op -> assertThat(op.operationId()).matches("[A-Z]\\w*_\\w+"));
        return operations;
    }

    private static boolean exists(String className) {
        try {
            Class.forName(className, false, RoutesTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }
}
