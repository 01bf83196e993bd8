package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.openshift.api.model.monitoring.v1.PodMetricsEndpoint;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import io.fabric8.openshift.api.model.monitoring.v1.Rule;
import io.smallrye.config.SmallRyeConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

/**
 * components/monitoring and Cassandra care as each overlay renders them: the PodMonitor, the alert
 * rules (fabric8's typed Prometheus Operator model, unknown fields rejected; every expression parsed
 * by {@link PromQl}), the Grafana dashboard ConfigMap, the NetworkPolicy rules for the scrapes and
 * the spans, the tracing settings as the service resolves them; Reaper and Medusa in prod.
 */
class MonitoringManifestsTest {
    private static final String MONITORING_NAMESPACE = "monitoring";

    @ParameterizedTest
    @FieldSource("dev.cqlpatterns.delivery.RenderedOverlay#OVERLAYS")
    void should_scrape_q_metrics_on_every_serving_pods_port(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        PodMonitor monitor = rendered.one(PodMonitor.class);
        assertThat(monitor.getSpec().getSelector().getMatchLabels())
                .containsEntry("app.kubernetes.io/name", "cql-patterns");
        List<PodMetricsEndpoint> endpoints = monitor.getSpec().getPodMetricsEndpoints();
        assertThat(endpoints).allSatisfy(e -> {
            assertThat(e.getPath()).isEqualTo("/q/metrics");
            assertThat(e.getHonorLabels()).as("the service's job label wins").isTrue();
        });
        List<String> ports = endpoints.stream().map(PodMetricsEndpoint::getPort).toList();
        if (rendered.functions()) {
            // Knative names the user container's port user-port in the pods it makes.
            assertThat(ports).contains("user-port");
        } else {
            Deployment deployment = rendered.one(Deployment.class);
            List<ContainerPort> served = deployment
                    .getSpec()
                    .getTemplate()
                    .getSpec()
                    .getContainers()
                    .get(0)
                    .getPorts();
            assertThat(served).anySatisfy(p -> {
                assertThat(ports).contains(p.getName());
                assertThat(p.getContainerPort()).isEqualTo(8080);
            });
        }
    }

    @ParameterizedTest
    @FieldSource("dev.cqlpatterns.delivery.RenderedOverlay#OVERLAYS")
    void should_let_prometheus_in_on_8080_and_spans_out_to_the_collector(String overlay) {
        List<NetworkPolicy> policies = RenderedOverlay.of(overlay).all(NetworkPolicy.class).stream()
                .filter(p -> "cql-patterns"
                        .equals(p.getSpec().getPodSelector().getMatchLabels().get("app.kubernetes.io/name")))
                .toList();
        assertThat(policies.stream().flatMap(p -> p.getSpec().getIngress().stream()))
                .anySatisfy(rule -> {
                    assertThat(rule.getFrom())
                            .anySatisfy(peer -> assertThat(namespaceOf(peer)).isEqualTo(MONITORING_NAMESPACE));
                    assertThat(rule.getPorts())
                            .anySatisfy(port ->
                                    assertThat(port.getPort().getIntVal()).isEqualTo(8080));
                });
        assertThat(policies.stream().flatMap(p -> p.getSpec().getEgress().stream()))
                .anySatisfy(rule -> {
                    assertThat(rule.getTo())
                            .anySatisfy(peer -> assertThat(namespaceOf(peer)).isEqualTo(MONITORING_NAMESPACE));
                    assertThat(rule.getPorts())
                            .anySatisfy(port ->
                                    assertThat(port.getPort().getIntVal()).isEqualTo(4317));
                });
    }

    private static String namespaceOf(NetworkPolicyPeer peer) {
        return peer.getNamespaceSelector() == null
                ? null
                : peer.getNamespaceSelector().getMatchLabels().get("kubernetes.io/metadata.name");
    }

    @ParameterizedTest
    @FieldSource("dev.cqlpatterns.delivery.RenderedOverlay#OVERLAYS")
    void should_trace_to_the_collector_in_every_environment(String overlay) {
        SmallRyeConfig config =
                ServiceConfig.resolve(RenderedOverlay.of(overlay).environment());
        assertThat(config.getValue("quarkus.otel.sdk.disabled", Boolean.class)).isFalse();
        assertThat(config.getValue("quarkus.otel.exporter.otlp.traces.endpoint", String.class))
                .startsWith("http://")
                .contains("." + MONITORING_NAMESPACE + ".")
                .endsWith(":4317");
    }

    @ParameterizedTest
    @FieldSource("dev.cqlpatterns.delivery.RenderedOverlay#OVERLAYS")
    void should_ship_the_dashboard_for_grafanas_sidecar(String overlay) throws Exception {
        ConfigMap dashboard = RenderedOverlay.of(overlay).all(ConfigMap.class).stream()
                .filter(c -> "1".equals(c.getMetadata().getLabels().get("grafana_dashboard")))
                .findFirst()
                .orElseThrow();
        assertThat(dashboard.getMetadata().getName()).isEqualTo("cql-patterns-dashboard");
        JsonNode json = new ObjectMapper().readTree(dashboard.getData().get("cql-patterns.json"));
        assertThat(json).isEqualTo(MonitoringSources.dashboard());
        assertThat(json.path("uid").asText()).isEqualTo("cql-patterns");
    }

    @ParameterizedTest
    @FieldSource("dev.cqlpatterns.delivery.RenderedOverlay#OVERLAYS")
    void should_alert_on_errors_latency_cassandra_and_jobs(String overlay) {
        PrometheusRule rules = RenderedOverlay.of(overlay).one(PrometheusRule.class);
        List<Rule> all = rules.getSpec().getGroups().stream()
                .flatMap(g -> g.getRules().stream())
                .toList();
        assertThat(all)
                .extracting(Rule::getAlert)
                .contains(
                        "CqlPatternsHighErrorRate",
                        "CqlPatternsHighLatencyP99",
                        "CqlPatternsCassandraUnavailable",
                        "CqlPatternsReadRefused",
                        "CqlPatternsBucketRollerNotRunning",
                        "CqlPatternsCronJobNotSucceeding");
        assertThat(all).allSatisfy(rule -> {
            PromQl.check(rule.getExpr().getStrVal());
            assertThat(rule.getLabels()).containsKey("severity");
            assertThat(rule.getAnnotations()).containsKeys("summary", "description");
            assertThat(rule.getFor()).matches("\\d+[smh]");
        });
        // What the source file says is what is applied.
        assertThat(all)
                .extracting(r -> r.getExpr().getStrVal())
                .containsExactlyElementsOf(MonitoringSources.ruleExpressions().values());
    }

    @Test
    void should_parse_every_dashboard_query() {
        Map<String, List<String>> panels = MonitoringSources.panelQueries();
        assertThat(panels).hasSizeGreaterThanOrEqualTo(20);
        panels.forEach((title, exprs) -> exprs.forEach(PromQl::check));
        // Per-route traffic, errors, latency, 429s, query cost, jobs and the driver each have a panel.
        String all =
                String.join("\n", panels.values().stream().flatMap(List::stream).toList());
        assertThat(all)
                .contains(
                        "http_server_requests_seconds_bucket",
                        "status=\"429\"",
                        "status=~\"5..\"",
                        "cql_request_partitions_read_sum",
                        "cql_request_statements_sum",
                        "scheduler_job_runs_total",
                        "cassandra_session_cql_requests_seconds_bucket",
                        "cassandra_session_connected_nodes");
    }

    @Test
    void should_read_metric_names_and_refuse_malformed_promql() {
        assertThat(PromQl.check("sum by (job) (increase(scheduler_job_runs_total{outcome=\"ran\"}[5m])) > 0"))
                .containsOnlyKeys("scheduler_job_runs_total");
        for (String bad : List.of("sum(rate(x[5m])", "rate(x[5 minutes])", "sumz(x)", "x{a=b}", "rate(x[5m]))")) {
            try {
                PromQl.check(bad);
            } catch (AssertionError expected) {
                continue;
            }
            throw new AssertionError("accepted " + bad);
        }
    }

    @ParameterizedTest
    @FieldSource("dev.cqlpatterns.delivery.RenderedOverlay#OVERLAYS")
    @SuppressWarnings("unchecked")
    void should_repair_and_back_up_prods_cassandra(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        Map<String, Object> spec = (Map<String, Object>)
                rendered.cassandra().getAdditionalProperties().get("spec");
        List<GenericKubernetesResource> schedules = rendered.all(GenericKubernetesResource.class).stream()
                .filter(r -> "MedusaBackupSchedule".equals(r.getKind()))
                .toList();
        if ("dev".equals(overlay)) {
            assertThat(spec).doesNotContainKeys("reaper", "medusa");
            assertThat(schedules).isEmpty();
            return;
        }
        Map<String, Object> reaper = (Map<String, Object>) spec.get("reaper");
        assertThat((Map<String, Object>) reaper.get("autoScheduling")).containsEntry("enabled", true);
        Map<String, Object> storage =
                (Map<String, Object>) ((Map<String, Object>) spec.get("medusa")).get("storageProperties");
        assertThat(storage).containsKeys("storageProvider", "bucketName");
        assertThat((Map<String, Object>) storage.get("storageSecretRef"))
                .containsEntry("name", "cql-patterns-medusa-bucket");
        assertThat(schedules).singleElement().satisfies(s -> {
            Map<String, Object> scheduleSpec =
                    (Map<String, Object>) s.getAdditionalProperties().get("spec");
            assertThat(scheduleSpec.get("cronSchedule")).isNotNull();
            assertThat((Map<String, Object>) scheduleSpec.get("backupSpec"))
                    .containsEntry("cassandraDatacenter", datacenterOf(spec));
        });
    }

    @SuppressWarnings("unchecked")
    private static String datacenterOf(Map<String, Object> spec) {
        List<Map<String, Object>> dcs =
                (List<Map<String, Object>>) ((Map<String, Object>) spec.get("cassandra")).get("datacenters");
        return (String) ((Map<String, Object>) dcs.get(0).get("metadata")).get("name");
    }
}
