package dev.cqlpatterns.clickstream;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;

/** The clickstream table (cql/022_clickstream.cql): every statement on it. */
final class ClickRows {
    private ClickRows() {}

    /** Clickstream: the newest clicks of one shard of a month. */
    static final Query IN_SHARD = Cql.idempotent(
            "SELECT click_id, ip, url FROM clickstream" + " WHERE year = ? AND month = ? AND shard = ? LIMIT ?");
    /** Clickstream: the next page of a shard, after a cursor. */
    static final Query IN_SHARD_AFTER = Cql.idempotent("SELECT click_id, ip, url FROM clickstream"
            + " WHERE year = ? AND month = ? AND shard = ? AND click_id < ? LIMIT ?");
    /** RecordClick: one click, living as long as the retention. */
    static final Query WRITE_CLICK = Cql.idempotent(
            "INSERT INTO clickstream (year, month, shard, click_id, ip, url) VALUES (?, ?, ?, ?, ?, ?) USING TTL ?");
}
