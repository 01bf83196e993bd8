package dev.cqlpatterns.messenger.inbox;

import com.datastax.oss.driver.api.core.cql.Row;
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

    /** Messages from others not read, by the summary's two numbers (message_positions); 0 when none. */
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
            if (InboxRows.isMember(s)) {
                summaries.add(new Summary(s.getUuid("conversation_id"), s, InboxRows.lastAt(s)));
            }
        }
        summaries.sort(MOST_RECENT_FIRST);
        return summaries;
    }
}
