package dev.cqlpatterns.platform.errors;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.QueryConsistencyException;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.TruncateException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteFailureException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** What a failure from the driver means for a request: Cassandra unavailable for now, or a read refused for good. */
public final class CassandraFailures {
    private CassandraFailures() {}

    /** Cassandra's reason codes (RequestFailureReason) of a read refused for what it would scan. */
    private static final Map<Integer, String> REFUSED_READ_REASONS = Map.of(1, "tombstones", 4, "size");

    /** The reason of a read failure answered without reasons: protocol V4, the one the service speaks. */
    public static final String UNREPORTED = "unreported";

    /**
     * "tombstones" or "size" when {@code failure} (or one of its causes) is a read a replica refused
     * for what it would have to scan: over tombstone_failure_threshold (reason 1) or over
     * local_read_size_fail_threshold (reason 4). The same read fails again on every retry. Protocol
     * V4 carries no reasons: a read failure there is {@link #UNREPORTED} and taken for a refusal, the
     * likeliest cause at LOCAL_QUORUM (every replica fails it alike), which the replicas' logs name
     * ("Scanned over 100001 tombstones").
     */
    public static Optional<String> refusedRead(Throwable failure) {
        return readFailure(failure)
                .map(refused -> refused.getReasonMap().isEmpty()
                        ? UNREPORTED
                        : refused.getReasonMap().values().stream()
                                .map(REFUSED_READ_REASONS::get)
                                .filter(Objects::nonNull)
                                .findFirst()
                                .orElse(null));
    }

    /** The read failure {@code failure} is or was caused by, if any. */
    public static Optional<ReadFailureException> readFailure(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof ReadFailureException refused) {
                return Optional.of(refused);
            }
        }
        return Optional.empty();
    }

    /** A failure of Cassandra or of the way to it: the request may succeed later (503, Retry-After). */
    static boolean isUnavailable(Throwable t) {
        return t instanceof AllNodesFailedException
                || t instanceof DriverTimeoutException
                || t instanceof QueryConsistencyException
                || t instanceof UnavailableException
                || t instanceof ClosedConnectionException
                || t instanceof BusyConnectionException
                || t instanceof HeartbeatException
                || t instanceof OverloadedException
                || t instanceof CASWriteUnknownException
                || t instanceof ReadFailureException
                || t instanceof WriteFailureException
                || t instanceof TruncateException;
    }
}
