package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cqlpatterns.delivery.RenderedOverlay.Pod;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.ReferenceGrant;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPeer;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.smallrye.config.SmallRyeConfig;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.ValueSource;

/** What every overlay of k8s/ must get right, checked on what kustomize renders. No cluster needed. */
class KubernetesManifestsTest {
    /** Set from a Kubernetes map key (replicas per datacenter); checked in OverlaysTest. */
    private static final String DATACENTERS_ENV = "CQL_PATTERNS_CASSANDRA_REPLICATION_DATACENTERS_";
    /** Read by the JVM itself, not by application.properties. */
    private static final Set<String> JVM_ENV = Set.of("JAVA_TOOL_OPTIONS");

    private static final List<String> OVERLAYS = RenderedOverlay.OVERLAYS;

    @Test
    void should_reject_a_field_the_kubernetes_api_does_not_define() {
        String misspelt = """
                apiVersion: apps/v1
                kind: Deployment
                metadata:
                  name: typo
                spec:
                  replica: 2
                """;
        assertThatThrownBy(() -> RenderedOverlay.parse("typo", misspelt))
                .hasMessageContaining("does not fit the Kubernetes API")
                .hasMessageContaining("replica");
    }

    @Test
    void should_reject_a_field_knative_does_not_define() {
        String misplaced = """
                apiVersion: serving.knative.dev/v1
                kind: Service
                metadata:
                  name: typo
                spec:
                  template:
                    spec:
                      minScale: 0
                """;
        assertThatThrownBy(() -> RenderedOverlay.parse("typo", misplaced))
                .hasMessageContaining("does not fit the Kubernetes API")
                .hasMessageContaining("minScale");
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void should_render_every_object_into_the_typed_model(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        List<String> kinds =
                rendered.objects.stream().map(o -> o.getClass().getSimpleName()).toList();
        assertThat(kinds).contains("HTTPRoute", "NetworkPolicy", "ConfigMap", "Job", "GenericKubernetesResource");
        assertThat(kinds).doesNotContain("Ingress");
        if (rendered.functions()) {
            assertThat(kinds)
                    .contains("CronJob")
                    .doesNotContain("Deployment", "HorizontalPodAutoscaler", "PodDisruptionBudget");
        } else {
            assertThat(kinds)
                    .contains("Deployment", "Service", "HorizontalPodAutoscaler", "PodDisruptionBudget")
                    .doesNotContain("CronJob");
        }
        assertThat(rendered.cassandra().getAdditionalProperties()).containsKey("spec");
        // Secrets are referenced, never shipped: no Secret object at all.
        assertThat(rendered.objects).noneMatch(o -> "Secret".equals(o.getKind()));
    }

    @Test
    void should_let_the_function_routes_name_the_local_gateway_from_each_function_namespace() {
        ReferenceGrant grant = RenderedOverlay.cluster().one(ReferenceGrant.class);
        Set<String> namespaces = RenderedOverlay.OVERLAYS.stream()
                .map(RenderedOverlay::of)
                .filter(RenderedOverlay::functions)
                .flatMap(r -> r.all(ConfigMap.class).stream())
                .map(c -> c.getMetadata().getNamespace())
                .collect(Collectors.toSet());
        assertThat(grant.getSpec().getFrom())
                .allSatisfy(from -> assertThat(from.getKind()).isEqualTo("HTTPRoute"))
                .extracting(from -> from.getNamespace())
                .containsExactlyInAnyOrderElementsOf(namespaces);
        assertThat(grant.getSpec().getTo()).singleElement().satisfies(to -> {
            assertThat(to.getKind()).isEqualTo("Service");
            assertThat(to.getName()).isEqualTo(RoutesTest.KNATIVE_LOCAL_GATEWAY);
        });
        assertThat(grant.getMetadata().getNamespace()).isEqualTo(RoutesTest.KNATIVE_LOCAL_GATEWAY_NAMESPACE);
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void should_probe_the_health_paths_the_service_serves_on_its_port(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        for (Pod server : rendered.servers()) {
            Container container = server.container();
            SmallRyeConfig config = ServiceConfig.resolve(rendered.environment(container));
            // Quarkus's defaults unless application.properties moves them; PackagedServiceIT calls them.
            String health = "/"
                    + config.getOptionalValue("quarkus.http.non-application-root-path", String.class)
                            .orElse("q") + "/"
                    + config.getOptionalValue("quarkus.smallrye-health.root-path", String.class)
                            .orElse("health") + "/";
            assertThat(path(container.getLivenessProbe())).isEqualTo(health + "live");
            assertThat(path(container.getReadinessProbe())).isEqualTo(health + "ready");
            assertThat(path(container.getStartupProbe())).isIn(health + "started", health + "live");

            ContainerPort http = container.getPorts().stream()
                    .filter(p -> p.getName().startsWith("http"))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(server.workload() + ": no container port named http"));
            assertThat(http.getContainerPort())
                    .as("the port the service listens on (quarkus.http.port)")
                    .isEqualTo(config.getValue("quarkus.http.port", Integer.class));
            for (Probe probe :
                    List.of(container.getLivenessProbe(), container.getReadinessProbe(), container.getStartupProbe())) {
                if (rendered.functions()) {
                    // Knative takes a probe without a port (or with the one container port) only.
                    assertThat(probe.getHttpGet().getPort())
                            .as(server.workload())
                            .isNull();
                } else {
                    assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo(http.getName());
                }
            }
            // The readiness check waits cassandra-timeout for Cassandra; the probe must wait longer.
            Duration cassandraTimeout =
                    ServiceConfig.duration(config.getValue("cql-patterns.health.cassandra-timeout", String.class));
            assertThat(Duration.ofSeconds(container.getReadinessProbe().getTimeoutSeconds()))
                    .isGreaterThan(cassandraTimeout);
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void should_give_the_pod_longer_to_stop_than_the_service_needs(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        SmallRyeConfig config = ServiceConfig.resolve(rendered.environment());
        assertThat(config.getValue("quarkus.shutdown.delay-enabled", Boolean.class))
                .isTrue();
        Duration needed = ServiceConfig.duration(config.getValue("quarkus.shutdown.delay", String.class))
                .plus(ServiceConfig.duration(config.getValue("quarkus.shutdown.timeout", String.class)));
        if (rendered.functions()) {
            // Knative gives a revision's pods its request timeout as their grace period.
            rendered.all(io.fabric8.knative.serving.v1.Service.class)
                    .forEach(s -> assertThat(Duration.ofSeconds(
                                    s.getSpec().getTemplate().getSpec().getTimeoutSeconds()))
                            .as(s.getMetadata().getName())
                            .isGreaterThan(needed));
        } else {
            long grace = rendered.one(Deployment.class)
                    .getSpec()
                    .getTemplate()
                    .getSpec()
                    .getTerminationGracePeriodSeconds();
            assertThat(Duration.ofSeconds(grace))
                    .as("terminationGracePeriodSeconds")
                    .isGreaterThan(needed);
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void should_run_every_pod_unprivileged_with_a_read_only_root_and_bounded_resources(String overlay) {
        for (Pod pod : RenderedOverlay.of(overlay).pods()) {
            Container container = pod.container();
            assertThat(pod.security().getRunAsNonRoot()).as(pod.workload()).isTrue();
            var security = container.getSecurityContext();
            assertThat(security.getAllowPrivilegeEscalation())
                    .as(pod.workload())
                    .isFalse();
            assertThat(security.getReadOnlyRootFilesystem()).as(pod.workload()).isTrue();
            assertThat(security.getCapabilities().getDrop()).as(pod.workload()).containsExactly("ALL");
            assertThat(security.getCapabilities().getAdd()).isNullOrEmpty();

            VolumeMount tmp = container.getVolumeMounts().stream()
                    .filter(m -> "/tmp".equals(m.getMountPath()))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(pod.workload() + ": a read-only root needs a writable /tmp"));
            assertThat(volume(pod, tmp.getName()).getEmptyDir()).isNotNull();

            assertThat(container.getResources().getRequests())
                    .as(pod.workload())
                    .containsKeys("cpu", "memory");
            assertThat(container.getResources().getLimits()).as(pod.workload()).containsKeys("cpu", "memory");
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void should_set_only_configuration_the_service_reads(String overlay) {
        String properties = ServiceConfig.properties();
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        for (Pod pod : rendered.pods()) {
            for (String name : rendered.environment(pod.container()).keySet()) {
                if (name.startsWith(DATACENTERS_ENV) || JVM_ENV.contains(name)) {
                    continue;
                }
                assertThat(properties)
                        .as(name + " is set by k8s/overlays/" + overlay + " but application.properties never reads it")
                        .containsPattern("\\$\\{" + name + "[:}]");
            }
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void should_give_every_pod_the_same_settings_credentials_and_keys_from_secrets(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        Map<String, String> shared =
                rendered.environment(rendered.one(io.fabric8.kubernetes.api.model.batch.v1.Job.class)
                        .getSpec()
                        .getTemplate()
                        .getSpec()
                        .getContainers()
                        .get(0));
        for (Pod pod : rendered.pods()) {
            Container container = pod.container();
            Map<String, String> environment = rendered.environment(container);
            // The Deployment's own ConfigMap may add to the shared settings and override the scheduler
            // switch and the JVM's sizing (an always-on replica is no function).
            Map<String, String> comparable = new java.util.HashMap<>(environment);
            comparable.keySet().retainAll(shared.keySet());
            Map<String, String> expected = new java.util.HashMap<>(shared);
            for (String own : List.of("SCHEDULER_IN_PROCESS", "JAVA_TOOL_OPTIONS")) {
                comparable.remove(own);
                expected.remove(own);
            }
            assertThat(comparable)
                    .as(pod.workload() + " has the migrate Job's settings")
                    .isEqualTo(expected);

            Map<String, EnvVar> env = container.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
            for (String secret : List.of("CQL_USERNAME", "CQL_PASSWORD", "CURSOR_SECRET")) {
                assertThat(env).as(pod.workload()).containsKey(secret);
                assertThat(env.get(secret).getValue())
                        .as(secret + " as a literal")
                        .isNull();
                assertThat(env.get(secret).getValueFrom().getSecretKeyRef())
                        .as(secret + " from a Secret")
                        .isNotNull();
            }
            // The JWT verification key is a file from a Secret volume.
            String keyFile = env.get("JWT_PUBLIC_KEY_LOCATION").getValue();
            VolumeMount mount = container.getVolumeMounts().stream()
                    .filter(m -> keyFile.startsWith(m.getMountPath() + "/"))
                    .findFirst()
                    .orElseThrow(
                            () -> new AssertionError(pod.workload() + ": " + keyFile + " is on no mounted volume"));
            Volume volume = volume(pod, mount.getName());
            assertThat(volume.getSecret()).as("volume " + volume.getName()).isNotNull();
            String fileName = keyFile.substring(mount.getMountPath().length() + 1);
            assertThat(volume.getSecret().getItems())
                    .anyMatch(item -> item.getPath().equals(fileName));
        }
        assertThat(rendered.all(ConfigMap.class))
                .allSatisfy(c ->
                        assertThat(c.getData()).doesNotContainKeys("CQL_USERNAME", "CQL_PASSWORD", "CURSOR_SECRET"));
    }

    @ParameterizedTest
    @ValueSource(strings = "prod-deployment")
    void should_point_every_selector_and_reference_at_the_serving_pods(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        Deployment deployment = rendered.one(Deployment.class);
        Map<String, String> podLabels =
                deployment.getSpec().getTemplate().getMetadata().getLabels();
        assertThat(podLabels)
                .containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());

        Service service = rendered.one(Service.class);
        assertThat(podLabels).containsAllEntriesOf(service.getSpec().getSelector());
        assertThat(podLabels)
                .containsAllEntriesOf(rendered.one(PodDisruptionBudget.class)
                        .getSpec()
                        .getSelector()
                        .getMatchLabels());
        // The migrate Job's and CronJobs' pods must not take the Service's requests or count in the PDB.
        for (Pod pod : rendered.pods()) {
            if (!pod.workload().equals(deployment.getMetadata().getName())) {
                assertThat(pod.labels()
                                .entrySet()
                                .containsAll(service.getSpec().getSelector().entrySet()))
                        .as(pod.workload() + " is selected by the Service")
                        .isFalse();
            }
        }
        Set<String> containerPorts = rendered.container().getPorts().stream()
                .map(ContainerPort::getName)
                .collect(Collectors.toSet());
        service.getSpec()
                .getPorts()
                .forEach(p ->
                        assertThat(containerPorts).contains(p.getTargetPort().getStrVal()));

        for (HorizontalPodAutoscaler hpa : rendered.all(HorizontalPodAutoscaler.class)) {
            assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
            assertThat(hpa.getSpec().getScaleTargetRef().getName())
                    .isEqualTo(deployment.getMetadata().getName());
            // Otherwise every apply resets the count the autoscaler chose.
            assertThat(deployment.getSpec().getReplicas())
                    .as("replicas of a Deployment the HPA scales")
                    .isNull();
        }
    }

    @ParameterizedTest
    @FieldSource("OVERLAYS")
    void should_let_in_only_the_gateway_or_knative_and_out_only_cassandra_and_dns(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        // The service's own policy; the only other one is components/monitoring's, which adds Prometheus's
        // scrapes and the spans to the collector (MonitoringManifestsTest).
        assertThat(rendered.all(NetworkPolicy.class))
                .extracting(p -> p.getMetadata().getName())
                .containsExactlyInAnyOrder("cql-patterns", "cql-patterns-monitoring");
        NetworkPolicy policy = rendered.all(NetworkPolicy.class).stream()
                .filter(p -> "cql-patterns".equals(p.getMetadata().getName()))
                .findFirst()
                .orElseThrow();
        assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");
        for (Pod pod : rendered.pods()) {
            assertThat(pod.labels())
                    .as(pod.workload())
                    .containsAllEntriesOf(policy.getSpec().getPodSelector().getMatchLabels());
        }

        List<NetworkPolicyPeer> peers = policy.getSpec().getIngress().stream()
                .flatMap(r -> r.getFrom().stream())
                .toList();
        Set<Integer> ports = policy.getSpec().getIngress().stream()
                .flatMap(r -> r.getPorts().stream())
                .map(p -> p.getPort().getIntVal())
                .collect(Collectors.toSet());
        assertThat(peers)
                .allSatisfy(peer -> assertThat(peer.getNamespaceSelector().getMatchLabels())
                        .containsKey("kubernetes.io/metadata.name"));
        Set<String> namespaces = peers.stream()
                .map(p -> p.getNamespaceSelector().getMatchLabels().get("kubernetes.io/metadata.name"))
                .collect(Collectors.toSet());
        if (rendered.functions()) {
            // Knative's activator and local Gateway proxies reach queue-proxy; its autoscaler scrapes it.
            assertThat(namespaces)
                    .containsExactlyInAnyOrder("knative-serving", RoutesTest.KNATIVE_LOCAL_GATEWAY_NAMESPACE);
            assertThat(peers)
                    .anySatisfy(
                            p -> assertThat(p.getPodSelector().getMatchLabels()).containsEntry("app", "activator"));
            assertThat(ports).containsExactlyInAnyOrder(8012, 8013, 9090);
        } else {
            // The proxies of the Gateway the HTTPRoute attaches to, on the service's port.
            String gatewayNamespace = rendered.all(io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute.class)
                    .get(0)
                    .getSpec()
                    .getParentRefs()
                    .get(0)
                    .getNamespace();
            assertThat(namespaces).containsExactly(gatewayNamespace);
            assertThat(ports)
                    .containsExactly(rendered.container().getPorts().get(0).getContainerPort());
        }

        Set<Integer> egressPorts = policy.getSpec().getEgress().stream()
                .flatMap(r -> r.getPorts().stream())
                .map(NetworkPolicyPort::getPort)
                .map(p -> p.getIntVal())
                .collect(Collectors.toSet());
        assertThat(egressPorts).containsExactlyInAnyOrder(9042, 53);
        // The CQL rule selects the pods of the K8ssandraCluster this overlay runs.
        String cluster = rendered.cassandra().getMetadata().getName();
        assertThat(policy.getSpec().getEgress()).anySatisfy(rule -> {
            assertThat(rule.getPorts()).extracting(p -> p.getPort().getIntVal()).containsExactly(9042);
            assertThat(rule.getTo())
                    .singleElement()
                    .satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels())
                            .containsEntry("cassandra.datastax.com/cluster", cluster));
        });
    }

    private static String path(Probe probe) {
        assertThat(probe).isNotNull();
        return probe.getHttpGet().getPath();
    }

    private static Volume volume(Pod pod, String name) {
        return pod.volumes().stream()
                .filter(v -> v.getName().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError(pod.workload() + ": no volume " + name));
    }
}
