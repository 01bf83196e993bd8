package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.scheduling.DataMigration;
import dev.cqlpatterns.platform.scheduling.PartitionWalks;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Multi;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.time.Clock;
import java.time.Duration;
import java.util.UUID;

/**
 * The migrate step of unread counts, {@code job unread-counts}: gives others_read to every summary
 * that has none (a membership begun before positions and never marked read since, cql/054), so that
 * every count is others_sent - others_read and a later release need not count markers.
 *
 * <p>For such a summary the inbox counts its markers after read_up_to; the job writes the number
 * that gives the same count: others_sent - (markers after read_up_to up to the last message). Both
 * are taken at the summary's last message, the markers once that message is older than
 * cql-patterns.messenger.unread-fill-settle (every send before it has written its marker), and the
 * value is written one microsecond before that message's time: a mark-read of it or of any later
 * message, a re-join or a leave, all written at or after it, win over the job. A send after the
 * last message counts on from the job's value as it does from a mark-read's. others_read may be
 * negative: others_sent does not count the messages sent before positions, the markers do. A summary
 * with no message gets 0, a microsecond after its join.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class UnreadCountsFill {
    public static final String NAME = "unread-counts";

    @Inject
    PartitionWalks walks;

    @Inject
    InboxRows inboxRows;

    @Inject
    MessengerSettings settings;

    @Inject
    Clock clock;

    @Produces
    @Singleton
    DataMigration migration() {
        return walks.walk(NAME, "inbox_by_user", "username", settings.unreadFillBatch(), this::fill);
    }

    /** Fills others_read on each of the user's summaries that has none, one after another. */
    Uni<Void> fill(String username) {
        return inboxRows
                .everySummary(username)
                .chain(summaries -> Multi.createFrom()
                        .iterable(summaries)
                        .filter(s -> s.isNull("others_read") && InboxRows.isMember(s))
                        .onItem()
                        .transformToUniAndConcatenate(s -> fill(username, s))
                        .collect()
                        .last()
                        .replaceWithVoid());
    }

    private Uni<Void> fill(String username, Row summary) {
        UUID conversationId = summary.getUuid("conversation_id");
        UUID last = summary.getUuid("last_message_id");
        long othersSent = summary.getLong("others_sent");
        UUID readUpTo = summary.getUuid("read_up_to");
        UUID from = readUpTo == null ? InboxRows.NEVER_READ : readUpTo;
        if (last == null) {
            // Nothing sent since the join: after the join's own cells (a re-join or a leave comes later).
            return inboxRows.fillOthersRead(
                    username, conversationId, 0, InboxRows.micros(summary.getInstant("joined_at")) + 1);
        }
        if (last.timestamp() <= from.timestamp()) {
            return inboxRows.fillOthersRead(username, conversationId, othersSent, InboxRows.micros(last) - 1);
        }
        Duration wait =
                Duration.between(clock.instant(), InboxRows.lastAt(summary).plus(settings.unreadFillSettle()));
        Uni<Void> settled = wait.isNegative() || wait.isZero()
                ? Uni.createFrom().voidItem()
                : Uni.createFrom().voidItem().onItem().delayIt().by(wait);
        return settled.chain(() -> inboxRows.markersBetween(username, conversationId, from, last))
                .chain(markers -> inboxRows.fillOthersRead(
                        username, conversationId, othersSent - markers, InboxRows.micros(last) - 1));
    }
}
