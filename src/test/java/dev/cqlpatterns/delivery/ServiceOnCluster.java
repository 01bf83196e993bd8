package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.PackagedService;
import dev.cqlpatterns.testsupport.PackagedService.Command;
import dev.cqlpatterns.testsupport.TestCluster;
import java.time.Duration;
import java.util.Map;

/**
 * The packaged service on a test cluster, as production runs it there: RF 3 (one replica per node
 * of a 3-node cluster), LOCAL_QUORUM, the keyspace migrated by the {@code migrate} command first,
 * no in-process scheduler and no rate limits (the load would meet them). Its log and every exception
 * it throws, with where, go to target/{@code name}.log and target/{@code name}-exceptions.log: all
 * three driver connections have been seen closing at once ("Unexpected error on channel") on a
 * healthy cluster, a cause the driver does not log.
 */
final class ServiceOnCluster {
    final int port;
    private final Process process;

    private ServiceOnCluster(int port, Process process) {
        this.port = port;
        this.process = process;
    }

    static ServiceOnCluster start(TestCluster cluster, int nodes, String keyspace, String name) throws Exception {
        PackagedService jar = new PackagedService(Map.of(
                "CQL_CONTACT_POINTS",
                cluster.contactPoints(),
                "CQL_LOCAL_DATACENTER",
                "datacenter1",
                "CQL_KEYSPACE",
                keyspace,
                "CQL_REPLICATION_FACTOR",
                Integer.toString(nodes),
                "CQL_CONSISTENCY",
                "LOCAL_QUORUM",
                "CURSOR_SECRET",
                name + "-test-cursor-secret",
                "RATE_LIMITS_ENABLED",
                "false",
                "SCHEDULER_IN_PROCESS",
                "false"));
        Command migrate = jar.command("migrate");
        assertThat(migrate.exitCode())
                .as("migrate; output:%n%s", migrate.output())
                .isZero();
        int port = PackagedService.freePort();
        long began = System.nanoTime();
        Process process = jar.serve(
                PackagedService.JAR,
                port,
                PackagedService.ROOT.resolve("target/" + name + ".log"),
                Map.of(
                        "JAVA_TOOL_OPTIONS",
                        "-Xlog:exceptions=info:file="
                                + PackagedService.ROOT.resolve("target/" + name + "-exceptions.log")));
        assertThat(PackagedService.firstAnswer(port, "/q/health/ready", began, Duration.ofSeconds(60)))
                .isEqualTo(200);
        return new ServiceOnCluster(port, process);
    }

    void stop() throws InterruptedException {
        PackagedService.stop(process);
    }
}
