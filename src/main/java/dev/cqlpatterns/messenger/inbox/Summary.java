package dev.cqlpatterns.messenger.inbox;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.time.TimeUuids;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;

/** A summary row of a conversation the caller is in, before its unread count is known. */
record Summary(UUID id, Row row, Instant lastAt) {
    /** The order of the list: last activity, newest first, then conversation id (as text), greatest first. */
    private static final Comparator<Summary> MOST_RECENT_FIRST = Comparator.comparing(Summary::lastAt)
            .thenComparing(s -> s.id().toString())
            .reversed();

    /** Messages from others not read, by the summary's two numbers (others_sent, others_read); 0 when none. */
    long unread() {
        return Math.max(0, row.getLong("others_sent") - row.getLong("others_read"));
    }

    /** The end of the caller's last mark-read, or before every message when none. */
    UUID readUpTo() {
        UUID readUpTo = row.getUuid("read_up_to");
        return readUpTo == null ? ReadState.NEVER_READ : readUpTo;
    }

    /** The summaries of conversations the caller is in, most recent activity first. */
    static List<Summary> ofMembers(List<Row> rows) {
        List<Summary> summaries = new ArrayList<>();
        for (Row s : rows) {
            if (isMember(s)) {
                summaries.add(new Summary(s.getUuid("conversation_id"), s, lastAtOf(s)));
            }
        }
        summaries.sort(MOST_RECENT_FIRST);
        return summaries;
    }

    /** The last activity a summary row stands for: its last message's time, or, before any, the join. */
    static Instant lastAtOf(Row summary) {
        UUID lastId = summary.getUuid("last_message_id");
        return lastId == null ? summary.getInstant("joined_at") : TimeUuids.instant(lastId);
    }

    /**
     * Whether a summary row is a membership: a send racing a leave can write last-message columns
     * after the user left, leaving a row without joined_at.
     */
    static boolean isMember(Row summary) {
        return summary.getInstant("joined_at") != null;
    }
}
