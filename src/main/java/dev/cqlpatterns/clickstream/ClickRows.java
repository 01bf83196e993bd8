package dev.cqlpatterns.clickstream;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.netty.util.NetUtil;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.net.InetAddress;
import java.time.YearMonth;
import java.util.List;
import java.util.UUID;

/** The clickstream table: every statement on it, and the decoding of its rows. */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class ClickRows {

    /** Clickstream: the newest clicks of one shard of a month. */
    private static final Query IN_SHARD = Cql.idempotent(
            "SELECT click_id, ip, url FROM clickstream" + " WHERE year = ? AND month = ? AND shard = ? LIMIT ?");
    /** Clickstream: the next page of a shard, after a cursor. */
    private static final Query IN_SHARD_AFTER = Cql.idempotent("SELECT click_id, ip, url FROM clickstream"
            + " WHERE year = ? AND month = ? AND shard = ? AND click_id < ? LIMIT ?");
    /** RecordClick: one click, living as long as the retention. */
    private static final Query WRITE_CLICK = Cql.idempotent(
            "INSERT INTO clickstream (year, month, shard, click_id, ip, url) VALUES (?, ?, ?, ?, ?, ?) USING TTL ?");

    @Inject
    Cql cql;

    /** A click as read: its timeuuid, and what the answer shows of it. */
    record Found(UUID id, Clickstream.Click click) {}

    /** The newest {@code need} clicks of one shard of a month, before {@code before} (null: the newest). */
    Uni<List<Found>> inShard(YearMonth month, int shard, UUID before, int need) {
        return (before == null
                        ? cql.read(IN_SHARD, month.getYear(), month.getMonthValue(), shard, need)
                        : cql.read(IN_SHARD_AFTER, month.getYear(), month.getMonthValue(), shard, before, need))
                .map(rs -> Cql.rows(rs).stream().map(ClickRows::found).toList());
    }

    private static Found found(Row row) {
        UUID id = row.getUuid("click_id");
        InetAddress ip = row.getInetAddress("ip");
        return new Found(
                id,
                new Clickstream.Click(
                        id.toString(),
                        TimeUuids.instant(id),
                        row.getString("url"),
                        ip == null ? null : NetUtil.toAddressString(ip)));
    }

    /** One click in its month's shard, living {@code ttlSeconds} (0: for ever). */
    Uni<Void> writeClick(YearMonth month, int shard, UUID clickId, InetAddress ip, String url, int ttlSeconds) {
        return cql.write(WRITE_CLICK, month.getYear(), month.getMonthValue(), shard, clickId, ip, url, ttlSeconds)
                .replaceWithVoid();
    }
}
