package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.smallrye.health.api.AsyncHealthCheck;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready only while Cassandra answers a query within the timeout. Liveness has no Cassandra
 * check on purpose: a database outage must not make Kubernetes restart every pod. Before the
 * session is connected the check is DOWN at once rather than waiting for it.
 */
@Readiness
@ApplicationScoped
public class CassandraReadiness implements AsyncHealthCheck {
    private static final SimpleStatement PING = SimpleStatement.newInstance("SELECT release_version FROM system.local")
            .setIdempotent(true);

    @Inject
    Cql cql;

    @ConfigProperty(name = "cql-patterns.health.cassandra-timeout", defaultValue = "PT2S")
    Duration timeout;

    @Override
    public Uni<HealthCheckResponse> call() {
        if (!cql.connected()) {
            return Uni.createFrom().item(down("not connected to Cassandra yet"));
        }
        return cql.session()
                .chain(session -> Uni.createFrom()
                        .completionStage(() -> session.executeAsync(PING.setTimeout(timeout)))
                        .map(rs -> {
                            var row = rs.one();
                            return HealthCheckResponse.named("cassandra")
                                    .up()
                                    .withData("releaseVersion", row == null ? "unknown" : row.getString(0))
                                    .withData("connectedNodes", (long)
                                            session.getMetadata().getNodes().size())
                                    .build();
                        }))
                .ifNoItem()
                .after(timeout.plusMillis(500))
                .fail()
                .onFailure()
                .recoverWithItem(failure -> down("Cassandra did not answer"));
    }

    private static HealthCheckResponse down(String reason) {
        return HealthCheckResponse.named("cassandra")
                .down()
                .withData("reason", reason)
                .build();
    }
}
