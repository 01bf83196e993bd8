package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.networking.v1.HTTPIngressPath;
import io.fabric8.kubernetes.api.model.networking.v1.Ingress;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicyPort;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.smallrye.config.SmallRyeConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** What every overlay of k8s/ must get right, checked on what kustomize renders. No cluster needed. */
class KubernetesManifestsTest {
    /** Set from a Kubernetes map key (replicas per datacenter); checked in OverlaysTest. */
    private static final String DATACENTERS_ENV = "CQL_PATTERNS_CASSANDRA_REPLICATION_DATACENTERS_";

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
                .hasMessageContaining("does not fit the Kubernetes API").hasMessageContaining("replica");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void should_render_every_object_into_the_typed_model(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        assertThat(rendered.objects).extracting(o -> o.getClass().getSimpleName()).contains(
                "Deployment", "Service", "Ingress", "NetworkPolicy", "PodDisruptionBudget", "ConfigMap",
                "GenericKubernetesResource");
        assertThat(rendered.cassandra().getAdditionalProperties()).containsKey("spec");
        // Secrets are referenced, never shipped: no Secret object at all.
        assertThat(rendered.objects).noneMatch(o -> "Secret".equals(o.getKind()));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void should_probe_the_health_paths_the_service_serves_on_its_port(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        Container container = rendered.container();
        SmallRyeConfig config = ServiceConfig.resolve(rendered.environment());
        // Quarkus's defaults unless application.properties moves them; PackagedServiceIT calls them.
        String health = "/" + config.getOptionalValue("quarkus.http.non-application-root-path", String.class).orElse("q")
                + "/" + config.getOptionalValue("quarkus.smallrye-health.root-path", String.class).orElse("health") + "/";
        assertThat(path(container.getLivenessProbe())).isEqualTo(health + "live");
        assertThat(path(container.getReadinessProbe())).isEqualTo(health + "ready");
        assertThat(path(container.getStartupProbe())).isIn(health + "started", health + "live");

        ContainerPort http = container.getPorts().stream().filter(p -> "http".equals(p.getName())).findFirst()
                .orElseThrow(() -> new AssertionError("no container port named http"));
        assertThat(http.getContainerPort()).as("the port the service listens on (quarkus.http.port)")
                .isEqualTo(config.getValue("quarkus.http.port", Integer.class));
        for (Probe probe : List.of(container.getLivenessProbe(), container.getReadinessProbe(), container.getStartupProbe())) {
            assertThat(probe.getHttpGet().getPort().getStrVal()).isEqualTo("http");
        }
        // The readiness check waits cassandra-timeout for Cassandra; the probe must wait longer.
        Duration cassandraTimeout = ServiceConfig.duration(config.getValue("cql-patterns.health.cassandra-timeout", String.class));
        assertThat(Duration.ofSeconds(container.getReadinessProbe().getTimeoutSeconds())).isGreaterThan(cassandraTimeout);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void should_give_the_pod_longer_to_stop_than_the_service_needs(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        SmallRyeConfig config = ServiceConfig.resolve(rendered.environment());
        assertThat(config.getValue("quarkus.shutdown.delay-enabled", Boolean.class)).isTrue();
        Duration needed = ServiceConfig.duration(config.getValue("quarkus.shutdown.delay", String.class))
                .plus(ServiceConfig.duration(config.getValue("quarkus.shutdown.timeout", String.class)));
        long grace = rendered.one(Deployment.class).getSpec().getTemplate().getSpec().getTerminationGracePeriodSeconds();
        assertThat(Duration.ofSeconds(grace)).as("terminationGracePeriodSeconds").isGreaterThan(needed);
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void should_run_unprivileged_with_a_read_only_root_and_bounded_resources(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        PodSpec pod = rendered.one(Deployment.class).getSpec().getTemplate().getSpec();
        Container container = rendered.container();
        assertThat(pod.getSecurityContext().getRunAsNonRoot()).isTrue();
        var security = container.getSecurityContext();
        assertThat(security.getAllowPrivilegeEscalation()).isFalse();
        assertThat(security.getReadOnlyRootFilesystem()).isTrue();
        assertThat(security.getCapabilities().getDrop()).containsExactly("ALL");
        assertThat(security.getCapabilities().getAdd()).isNullOrEmpty();

        VolumeMount tmp = container.getVolumeMounts().stream().filter(m -> "/tmp".equals(m.getMountPath())).findFirst()
                .orElseThrow(() -> new AssertionError("a read-only root needs a writable /tmp"));
        assertThat(volume(pod, tmp.getName()).getEmptyDir()).isNotNull();

        assertThat(container.getResources().getRequests()).containsKeys("cpu", "memory");
        assertThat(container.getResources().getLimits()).containsKeys("cpu", "memory");
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void should_set_only_configuration_the_service_reads(String overlay) {
        String properties = ServiceConfig.properties();
        for (String name : RenderedOverlay.of(overlay).environment().keySet()) {
            if (name.startsWith(DATACENTERS_ENV)) {
                continue;
            }
            assertThat(properties).as(name + " is set by k8s/overlays/" + overlay + " but application.properties never reads it")
                    .containsPattern("\\$\\{" + name + "[:}]");
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void should_take_credentials_and_keys_from_secrets(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        Container container = rendered.container();
        Map<String, EnvVar> env = container.getEnv().stream().collect(Collectors.toMap(EnvVar::getName, e -> e));
        for (String secret : List.of("CQL_USERNAME", "CQL_PASSWORD", "CURSOR_SECRET")) {
            assertThat(env).containsKey(secret);
            assertThat(env.get(secret).getValue()).as(secret + " as a literal").isNull();
            assertThat(env.get(secret).getValueFrom().getSecretKeyRef()).as(secret + " from a Secret").isNotNull();
        }
        assertThat(rendered.all(ConfigMap.class)).allSatisfy(c -> assertThat(c.getData()).doesNotContainKeys(
                "CQL_USERNAME", "CQL_PASSWORD", "CURSOR_SECRET"));

        // The JWT verification key is a file from a Secret volume.
        String keyFile = env.get("JWT_PUBLIC_KEY_LOCATION").getValue();
        PodSpec pod = rendered.one(Deployment.class).getSpec().getTemplate().getSpec();
        VolumeMount mount = container.getVolumeMounts().stream().filter(m -> keyFile.startsWith(m.getMountPath() + "/"))
                .findFirst().orElseThrow(() -> new AssertionError(keyFile + " is on no mounted volume"));
        Volume volume = volume(pod, mount.getName());
        assertThat(volume.getSecret()).as("volume " + volume.getName()).isNotNull();
        String fileName = keyFile.substring(mount.getMountPath().length() + 1);
        assertThat(volume.getSecret().getItems()).anyMatch(item -> item.getPath().equals(fileName));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void should_point_every_selector_and_reference_at_the_service_pods(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        Deployment deployment = rendered.one(Deployment.class);
        Map<String, String> podLabels = deployment.getSpec().getTemplate().getMetadata().getLabels();
        assertThat(podLabels).containsAllEntriesOf(deployment.getSpec().getSelector().getMatchLabels());

        Service service = rendered.one(Service.class);
        assertThat(podLabels).containsAllEntriesOf(service.getSpec().getSelector());
        Set<String> containerPorts = rendered.container().getPorts().stream().map(ContainerPort::getName).collect(Collectors.toSet());
        service.getSpec().getPorts().forEach(p -> assertThat(containerPorts).contains(p.getTargetPort().getStrVal()));

        Set<String> servicePorts = service.getSpec().getPorts().stream().map(p -> p.getName()).collect(Collectors.toSet());
        for (HTTPIngressPath path : ingressPaths(rendered)) {
            assertThat(path.getBackend().getService().getName()).isEqualTo(service.getMetadata().getName());
            assertThat(servicePorts).contains(path.getBackend().getService().getPort().getName());
        }
        assertThat(podLabels).containsAllEntriesOf(rendered.one(PodDisruptionBudget.class).getSpec().getSelector().getMatchLabels());
        assertThat(podLabels).containsAllEntriesOf(rendered.one(NetworkPolicy.class).getSpec().getPodSelector().getMatchLabels());

        for (HorizontalPodAutoscaler hpa : rendered.all(HorizontalPodAutoscaler.class)) {
            assertThat(hpa.getSpec().getScaleTargetRef().getKind()).isEqualTo("Deployment");
            assertThat(hpa.getSpec().getScaleTargetRef().getName()).isEqualTo(deployment.getMetadata().getName());
            // Otherwise every apply resets the count the autoscaler chose.
            assertThat(deployment.getSpec().getReplicas()).as("replicas of a Deployment the HPA scales").isNull();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void should_route_every_path_of_the_contract_and_nothing_under_q(String overlay) throws IOException {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        Ingress ingress = rendered.one(Ingress.class);
        assertThat(ingress.getSpec().getIngressClassName()).isEqualTo("nginx");
        List<HTTPIngressPath> paths = ingressPaths(rendered);
        assertThat(paths).allSatisfy(p -> assertThat(p.getPathType()).isEqualTo("Prefix"));
        assertThat(paths).noneMatch(p -> p.getPath().startsWith("/q"));

        Set<String> routed = paths.stream().map(HTTPIngressPath::getPath).collect(Collectors.toSet());
        JsonNode contract = new ObjectMapper(new YAMLFactory()).readTree(Files.readString(RenderedOverlay.ROOT.resolve("openapi.yaml")));
        Set<String> published = new HashSet<>();
        contract.path("paths").fieldNames().forEachRemaining(p -> published.add("/" + p.split("/")[1]));
        assertThat(routed).as("Ingress paths for the contract's top-level paths").containsAll(published);

        // nginx rejects bodies above this before the service sees them; keep both limits the same.
        String nginxLimit = ingress.getMetadata().getAnnotations().get("nginx.ingress.kubernetes.io/proxy-body-size");
        assertThat(nginxLimit).isEqualToIgnoringCase(rendered.environment().get("HTTP_MAX_BODY_SIZE"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"dev", "prod"})
    void should_let_in_only_the_ingress_controller_and_out_only_cassandra_and_dns(String overlay) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        NetworkPolicy policy = rendered.one(NetworkPolicy.class);
        assertThat(policy.getSpec().getPolicyTypes()).containsExactlyInAnyOrder("Ingress", "Egress");

        assertThat(policy.getSpec().getIngress()).singleElement().satisfies(rule -> {
            assertThat(rule.getFrom()).singleElement().satisfies(peer -> {
                assertThat(peer.getNamespaceSelector().getMatchLabels()).containsEntry("kubernetes.io/metadata.name", "ingress-nginx");
                assertThat(peer.getPodSelector().getMatchLabels()).containsEntry("app.kubernetes.io/name", "ingress-nginx");
            });
            assertThat(rule.getPorts()).extracting(p -> p.getPort().getStrVal()).containsExactly("http");
        });

        Set<Integer> egressPorts = policy.getSpec().getEgress().stream().flatMap(r -> r.getPorts().stream())
                .map(NetworkPolicyPort::getPort).map(p -> p.getIntVal()).collect(Collectors.toSet());
        assertThat(egressPorts).containsExactlyInAnyOrder(9042, 53);
        // The CQL rule selects the pods of the K8ssandraCluster this overlay runs.
        String cluster = rendered.cassandra().getMetadata().getName();
        assertThat(policy.getSpec().getEgress()).anySatisfy(rule -> {
            assertThat(rule.getPorts()).extracting(p -> p.getPort().getIntVal()).containsExactly(9042);
            assertThat(rule.getTo()).singleElement().satisfies(peer -> assertThat(peer.getPodSelector().getMatchLabels())
                    .containsEntry("cassandra.datastax.com/cluster", cluster));
        });
    }

    private static List<HTTPIngressPath> ingressPaths(RenderedOverlay rendered) {
        return rendered.one(Ingress.class).getSpec().getRules().stream()
                .flatMap(rule -> rule.getHttp().getPaths().stream()).toList();
    }

    private static String path(Probe probe) {
        assertThat(probe).isNotNull();
        return probe.getHttpGet().getPath();
    }

    private static Volume volume(PodSpec pod, String name) {
        return pod.getVolumes().stream().filter(v -> v.getName().equals(name)).findFirst()
                .orElseThrow(() -> new AssertionError("no volume " + name));
    }
}
