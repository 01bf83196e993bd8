package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.autoscaling.v2.HorizontalPodAutoscaler;
import io.smallrye.config.SmallRyeConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.FieldSource;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Each environment's Cassandra settings, as the service in the pod resolves them (the real
 * application.properties and CassandraSettings mapping), against the K8ssandraCluster beside it.
 */
class OverlaysTest {

    static Stream<Arguments> environments() {
        return Stream.of(
                // overlay, strategy, replicas per datacenter (NetworkTopologyStrategy), consistency, Cassandra nodes,
                // service replicas
                // Functions scale to zero: no service replica while idle.
                arguments("dev", "SimpleStrategy", Map.of(), "LOCAL_ONE", 1, 0),
                arguments("prod", "NetworkTopologyStrategy", Map.of("dc1", 3), "LOCAL_QUORUM", 3, 0),
                arguments("prod-jvm", "NetworkTopologyStrategy", Map.of("dc1", 3), "LOCAL_QUORUM", 3, 0),
                arguments("prod-deployment", "NetworkTopologyStrategy", Map.of("dc1", 3), "LOCAL_QUORUM", 3, 3));
    }

    @ParameterizedTest
    @MethodSource("environments")
    void should_configure_replication_and_consistency_for_the_environment(
            String overlay,
            String strategy,
            Map<String, Integer> datacenters,
            String consistency,
            int nodes,
            int replicas) {
        SmallRyeConfig config =
                ServiceConfig.resolve(RenderedOverlay.of(overlay).environment());
        CassandraSettings.Replication replication =
                config.getConfigMapping(CassandraSettings.class).replication();
        assertThat(replication.strategy()).isEqualTo(strategy);
        if ("SimpleStrategy".equals(strategy)) {
            assertThat(replication.factor()).isEqualTo(1);
        } else {
            assertThat(replication.datacenters()).isEqualTo(datacenters);
        }
        assertThat(config.getValue("quarkus.cassandra.request.consistency-level", String.class))
                .isEqualTo(consistency);
        assertThat(config.getValue("quarkus.cassandra.request.serial-consistency-level", String.class))
                .isEqualTo("LOCAL_SERIAL");
    }

    @ParameterizedTest
    @MethodSource("environments")
    void should_replicate_only_to_datacenters_the_cluster_has_with_enough_nodes(
            String overlay,
            String strategy,
            Map<String, Integer> datacenters,
            String consistency,
            int nodes,
            int replicas) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        SmallRyeConfig config = ServiceConfig.resolve(rendered.environment());
        CassandraSettings.Replication replication =
                config.getConfigMapping(CassandraSettings.class).replication();
        Map<String, Integer> sizes = datacenterSizes(rendered.cassandra());
        assertThat(sizes.values()).containsOnly(nodes);

        Map<String, Integer> wanted = "SimpleStrategy".equals(strategy)
                ? Map.of(sizes.keySet().iterator().next(), replication.factor())
                : replication.datacenters();
        // Cassandra refuses NetworkTopologyStrategy with a datacenter it does not have.
        assertThat(sizes.keySet()).containsAll(wanted.keySet());
        wanted.forEach((dc, rf) -> assertThat(rf).as("replicas in " + dc).isLessThanOrEqualTo(sizes.get(dc)));

        String localDc = config.getValue("quarkus.cassandra.local-datacenter", String.class);
        assertThat(sizes).containsKey(localDc);
        // cass-operator names the datacenter's service <cluster>-<dc>-service.
        String cluster = rendered.cassandra().getMetadata().getName();
        assertThat(config.getValue("quarkus.cassandra.contact-points", String.class))
                .isEqualTo(cluster + "-" + localDc + "-service:9042");
    }

    @ParameterizedTest
    @FieldSource("dev.cqlpatterns.delivery.RenderedOverlay#OVERLAYS")
    void should_run_the_cassandra_version_the_tests_run_against(String overlay) throws IOException {
        String local = Files.readString(RenderedOverlay.ROOT.resolve("cassandra/pom.xml"))
                .replaceAll("(?s).*<cassandra.version>([^<]+)</cassandra.version>.*", "$1");
        assertThat(cassandraSpec(RenderedOverlay.of(overlay).cassandra()).get("serverVersion"))
                .isEqualTo(local);
    }

    @ParameterizedTest
    @MethodSource("environments")
    void should_run_the_service_replicas_the_environment_needs(
            String overlay,
            String strategy,
            Map<String, Integer> datacenters,
            String consistency,
            int nodes,
            int replicas) {
        RenderedOverlay rendered = RenderedOverlay.of(overlay);
        if (rendered.functions()) {
            assertThat(rendered.all(io.fabric8.knative.serving.v1.Service.class))
                    .allSatisfy(s -> assertThat(
                                    s.getSpec().getTemplate().getMetadata().getAnnotations())
                            .containsEntry(FunctionsTest.MIN_SCALE, String.valueOf(replicas)));
            return;
        }
        List<HorizontalPodAutoscaler> autoscalers = rendered.all(HorizontalPodAutoscaler.class);
        int least = autoscalers.isEmpty()
                ? rendered.one(Deployment.class).getSpec().getReplicas()
                : autoscalers.get(0).getSpec().getMinReplicas();
        assertThat(least).isEqualTo(replicas);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> cassandraSpec(GenericKubernetesResource cluster) {
        return (Map<String, Object>)
                ((Map<String, Object>) cluster.getAdditionalProperties().get("spec")).get("cassandra");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Integer> datacenterSizes(GenericKubernetesResource cluster) {
        Map<String, Integer> sizes = new HashMap<>();
        for (Map<String, Object> dc :
                (List<Map<String, Object>>) cassandraSpec(cluster).get("datacenters")) {
            sizes.put((String) ((Map<String, Object>) dc.get("metadata")).get("name"), (Integer) dc.get("size"));
        }
        return sizes;
    }
}
