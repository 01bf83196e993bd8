package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import io.quarkus.runtime.StartupEvent;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.time.Duration;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The driver session, only ever used through its future ({@code CompletionStage<QuarkusCqlSession>}),
 * never through the blocking {@code QuarkusCqlSession} bean: the driver connects on Quarkus's event
 * loop, so a thread that blocked on the session while it is being built could be the very thread
 * it needs (a scheduled tick on an event loop did exactly that). Connecting starts at start-up
 * without waiting for it; whatever comes earlier waits without blocking, at most
 * {@code cql-patterns.cassandra.session-wait}, then answers 503 with Retry-After.
 *
 * <p>Results are handed back on the caller's Vert.x context (the driver completes its futures on
 * its own I/O threads), so a handler's next step runs where it started and never blocks.
 */
@ApplicationScoped
class CassandraSession {
    @Inject
    CompletionStage<QuarkusCqlSession> sessionStage;

    @Inject
    CassandraSettings settings;

    private volatile CqlIdentifier keyspace;
    /** The connected session, once there is one: the fast path of every statement. */
    private volatile QuarkusCqlSession connected;

    /** Starts connecting while the rest of start-up goes on; nothing waits for it here. */
    void connectEarly(@Observes StartupEvent event) {
        sessionStage.thenAccept(session -> connected = session);
    }

    /** The session, on the caller's context; 503 (a driver timeout) if it is not connected in time. */
    Uni<QuarkusCqlSession> session() {
        QuarkusCqlSession session = connected;
        if (session != null) {
            return Uni.createFrom().item(session);
        }
        Duration wait = settings.sessionWait();
        return resume(sessionStage)
                .ifNoItem()
                .after(wait)
                .failWith(() ->
                        new DriverTimeoutException("No connection to Cassandra within " + wait + " of the request"))
                .invoke(s -> connected = s);
    }

    boolean connected() {
        return connected != null;
    }

    CqlIdentifier keyspace() {
        CqlIdentifier ks = keyspace;
        if (ks == null) {
            ks = CqlIdentifier.fromInternal(settings.keyspace());
            keyspace = ks;
        }
        return ks;
    }

    /**
     * A future that many callers share (the session, a prepared statement) as a Uni that completes
     * on the caller's Vert.x context. Each caller gets its own dependent stage: a caller that gives
     * up (a timeout cancels upstream) must not cancel the shared future for everyone.
     */
    static <T> Uni<T> resume(CompletionStage<T> shared) {
        return onCallersContext(Uni.createFrom().completionStage(() -> shared.thenApply(Function.identity())));
    }

    static <T> Uni<T> onCallersContext(Uni<T> uni) {
        Context context = Vertx.currentContext();
        return context == null ? uni : uni.emitOn(task -> context.runOnContext(ignored -> task.run()));
    }
}
