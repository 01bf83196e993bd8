package dev.cqlpatterns.platform.cassandra;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.context.DriverContext;
import com.datastax.oss.driver.api.core.retry.RetryVerdict;
import com.datastax.oss.driver.api.core.servererrors.WriteType;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.internal.core.retry.DefaultRetryPolicy;
import io.quarkus.runtime.annotations.RegisterForReflection;

/**
 * The driver's default retry policy, plus one retry on the next coordinator when Cassandra answers
 * an idempotent statement with a timeout of its own: a read that did not hear from enough replicas,
 * or a write (plain, batch or conditional) that did not. While a replica has died and the others
 * still think it alive, or has been paused, or has just come back and replays hints, a coordinator
 * may keep waiting on it until its own timeout; the next coordinator asks the replicas afresh. The
 * default policy retries neither (a read timeout only when the data merely did not arrive, a
 * write timeout only for the batch log), so each would answer 503 although two of three replicas
 * hold every row.
 *
 * <p>Safe because only idempotent statements are retried: those of {@code Cql.idempotent} (same
 * effect twice) and of {@code Cql.conditional}, whose callers tell their own outcome from a "not
 * applied" answer. Counters, appends and plain LWTs are never retried (the driver does not consult
 * the policy on a write timeout of a statement not marked idempotent, and this class checks it for
 * reads too). The driver's request timeout (application.properties) is longer than Cassandra's
 * read and write timeouts, so the retry has time to run.
 * The driver instantiates it by name (application.conf), hence registered for a native image.
 */
@RegisterForReflection
public class NextCoordinatorRetry extends DefaultRetryPolicy {

    public NextCoordinatorRetry(DriverContext context, String profileName) {
        super(context, profileName);
    }

    @Override
    public RetryVerdict onReadTimeoutVerdict(
            Request request, ConsistencyLevel cl, int blockFor, int received, boolean dataPresent, int retryCount) {
        return once(request, retryCount)
                ? RetryVerdict.RETRY_NEXT
                : super.onReadTimeoutVerdict(request, cl, blockFor, received, dataPresent, retryCount);
    }

    @Override
    public RetryVerdict onWriteTimeoutVerdict(
            Request request, ConsistencyLevel cl, WriteType writeType, int blockFor, int received, int retryCount) {
        return once(request, retryCount)
                ? RetryVerdict.RETRY_NEXT
                : super.onWriteTimeoutVerdict(request, cl, writeType, blockFor, received, retryCount);
    }

    private static boolean once(Request request, int retryCount) {
        return retryCount == 0 && Boolean.TRUE.equals(request.isIdempotent());
    }
}
