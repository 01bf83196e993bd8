package dev.cqlpatterns.messenger;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.accounting.QueryStats;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.CqlTypes;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Inject;
import jakarta.inject.Singleton;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.UUID;

/**
 * The messages_by_conversation table: every statement on it, its month buckets and how a row reads
 * as a {@link Message}; and the read of a member's unread messages that mark-read makes: the newest ones
 * from others after a read position up to the last message.
 */
@IfBuildProperty(name = FunctionGroup.Property.MESSENGER, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class Messages {
    /** Rows one read of the unread messages asks for: the caller's own messages are skipped. */
    private static final int UNREAD_PAGE = 50;
    /** Writes per unlogged batch of seen_at cells: one partition, one mutation, a few KB. */
    private static final int WRITES_PER_BATCH = 50;

    /** Months of each conversation that hold messages (entity = the conversation id). */
    static final TimeSeries SERIES = TimeSeries.perEntity("messages", Granularity.MONTH, Optional.empty());

    /** The columns {@link #view} reads. */
    static final String COLUMNS =
            "conversation_id, message_id, sender, content, recipients, attachments, seen_by, seen_at";

    /** A page of one month's messages, newest first, from an upper bound down to a lower one (both kept). */
    private static final Query NEWEST = Cql.idempotent(
            "SELECT " + COLUMNS + " FROM messages_by_conversation WHERE conversation_id = ? AND bucket = ? "
                    + "AND message_id <= ? AND message_id >= ? LIMIT ?");
    /** The next page: one month's messages older than the cursor's, down to the lower bound. */
    private static final Query OLDER_THAN = Cql.idempotent(
            "SELECT " + COLUMNS + " FROM messages_by_conversation WHERE conversation_id = ? AND bucket = ? "
                    + "AND message_id < ? AND message_id >= ? LIMIT ?");
    /** When one reader saw one message (a cell of the seen_at map). */
    private static final Query SEEN_AT = Cql.idempotent(
            "UPDATE messages_by_conversation SET seen_at[?] = ? WHERE conversation_id = ? AND bucket = ? "
                    + "AND message_id = ?");
    // The index queries name no partition: the partitions they read are known only from the rows they
    // answer, so they are declared 0 here and counted by sentBy from the rows. An upper bound before the
    // query (every token range, or every partition of the sender) would be a guess, not a count.
    private static final Query SENT_TO = Cql.idempotent("SELECT " + COLUMNS
                    + ", bucket FROM messages_by_conversation WHERE sender = ? AND recipients CONTAINS ?")
            .reads(0);
    private static final Query SENT_BY = Cql.idempotent(
                    "SELECT " + COLUMNS + ", bucket FROM messages_by_conversation WHERE sender = ?")
            .reads(0);
    /** A month's messages after a read position up to the last one, newest first (only who sent each). */
    private static final Query BETWEEN_NEWEST_FIRST =
            Cql.idempotent("SELECT message_id, sender FROM messages_by_conversation WHERE conversation_id = ? "
                    + "AND bucket = ? AND message_id > ? AND message_id <= ? LIMIT ?");
    /** The message under its own timeuuid, so a retried send writes the same row. */
    private static final Query INSERT = Cql.idempotent(
            "INSERT INTO messages_by_conversation (conversation_id, bucket, message_id, sender, content, recipients, "
                    + "attachments) VALUES (?, ?, ?, ?, ?, ?, ?)");

    @Inject
    Cql cql;

    @Inject
    BucketRegistry buckets;

    @Produces
    @Singleton
    TimeSeries messages() {
        return SERIES;
    }

    /**
     * Writes a message in its month (listed in time_buckets first), under its own timeuuid: a retried
     * send writes the same row.
     */
    Uni<Void> insert(
            UUID conversationId,
            UUID messageId,
            String sender,
            String content,
            Set<String> recipients,
            Map<String, String> attachments) {
        return buckets.record(SERIES, conversationId.toString(), TimeUuids.instant(messageId))
                .chain(bucket ->
                        cql.write(INSERT, conversationId, bucket, messageId, sender, content, recipients, attachments))
                .replaceWithVoid();
    }

    /**
     * Up to {@code limit} messages of one month, newest first, down to {@code lower} (kept): from
     * {@code upper} (kept) when {@code after} is null, else those older than {@code after}.
     */
    Uni<List<Message>> page(UUID conversationId, int month, UUID after, UUID upper, UUID lower, int limit) {
        Uni<AsyncResultSet> read = after == null
                ? cql.read(NEWEST, conversationId, month, upper, lower, limit)
                : cql.read(OLDER_THAN, conversationId, month, after, lower, limit);
        return read.map(rs -> Cql.rows(rs).stream().map(Messages::view).toList());
    }

    /**
     * Sets {@code reader}'s seen_at entry of those messages of one month, at {@code at}: one cell each,
     * idempotent, in unlogged batches of the month's one partition. Answers how many.
     */
    Uni<Integer> markSeen(UUID conversationId, int month, List<UUID> messageIds, String reader, Instant at) {
        List<Uni<BoundStatement>> writes = messageIds.stream()
                .map(messageId -> cql.bind(SEEN_AT, reader, at, conversationId, month, messageId))
                .toList();
        return Uni.join().all(writes).andFailFast().chain(statements -> {
            List<Uni<AsyncResultSet>> batches = new ArrayList<>();
            for (int from = 0; from < statements.size(); from += WRITES_PER_BATCH) {
                List<BoundStatement> chunk =
                        statements.subList(from, Math.min(statements.size(), from + WRITES_PER_BATCH));
                batches.add(cql.execute(
                        BatchStatement.newInstance(DefaultBatchType.UNLOGGED, chunk.toArray(new BoundStatement[0]))
                                .setIdempotent(true)));
            }
            return Uni.join().all(batches).andFailFast().map(done -> statements.size());
        });
    }

    /** One page of a sender's messages found by the index, and where the next page starts (null: none). */
    record SentPage(List<Message> messages, ByteBuffer next) {}

    /**
     * A page of {@code size} of the messages {@code sender} sent to {@code reader}, or of all they sent
     * when the reader is the sender, from the paging state {@code start} (null: the first page).
     */
    Uni<SentPage> sentBy(String sender, String reader, int size, ByteBuffer start) {
        Query query = sender.equals(reader) ? SENT_BY : SENT_TO;
        Object[] values = sender.equals(reader) ? new Object[] {sender} : new Object[] {sender, reader};
        return cql.read(query, b -> b.setPageSize(size).setPagingState(start), values)
                .map(rs -> {
                    List<Row> rows = Cql.rows(rs);
                    // The partitions this index query read are known only now: those its rows came from.
                    QueryStats.addPartitions((int) rows.stream()
                            .map(row -> row.getUuid("conversation_id") + ":" + row.getInt("bucket"))
                            .distinct()
                            .count());
                    return new SentPage(
                            rows.stream().map(Messages::view).toList(),
                            rs.getExecutionInfo().getPagingState());
                });
    }

    /**
     * The newest messages of the conversation after {@code after} up to {@code upTo} (included) that
     * someone else than {@code me} sent, at most {@code max}, by month: the months listed from
     * {@code upTo}'s back to {@code after}'s (none listed when both fall in one month), each read newest first.
     */
    Uni<Map<Integer, List<UUID>>> newestFromOthers(UUID conversationId, UUID after, UUID upTo, String me, int max) {
        int from = bucket(after);
        int to = bucket(upTo);
        // Both ends in one month: that month, with no read of the registry.
        Uni<List<Integer>> months = from == to
                ? Uni.createFrom().item(List.of(to))
                : buckets.newestFirst(SERIES, conversationId.toString(), to, from, monthsBetween(from, to));
        return months.chain(
                listed -> newestFromOthers(conversationId, after, upTo, me, max, listed, 0, new TreeMap<>(), 0));
    }

    private Uni<Map<Integer, List<UUID>>> newestFromOthers(
            UUID conversationId,
            UUID after,
            UUID upTo,
            String me,
            int max,
            List<Integer> months,
            int month,
            Map<Integer, List<UUID>> found,
            int count) {
        if (month >= months.size() || count >= max) {
            return Uni.createFrom().item(found);
        }
        int bucket = months.get(month);
        return cql.read(BETWEEN_NEWEST_FIRST, conversationId, bucket, after, upTo, UNREAD_PAGE)
                .chain(rs -> {
                    List<Row> rows = Cql.rows(rs);
                    int n = count;
                    for (Row row : rows) {
                        if (n < max && !me.equals(row.getString("sender"))) {
                            found.computeIfAbsent(bucket, b -> new ArrayList<>())
                                    .add(row.getUuid("message_id"));
                            n++;
                        }
                    }
                    return rows.size() < UNREAD_PAGE
                            ? newestFromOthers(conversationId, after, upTo, me, max, months, month + 1, found, n)
                            : newestFromOthers(
                                    conversationId,
                                    after,
                                    rows.get(rows.size() - 1).getUuid("message_id"),
                                    me,
                                    max,
                                    months,
                                    month,
                                    found,
                                    n);
                });
    }

    /** The months from {@code from} to {@code to} (yyyymm keys, both included). */
    private static int monthsBetween(int from, int to) {
        return Math.max(1, (to / 100 - from / 100) * 12 + to % 100 - from % 100 + 1);
    }

    static int bucket(UUID messageId) {
        return SERIES.granularity().key(TimeUuids.instant(messageId));
    }

    /** A row selected with {@link #COLUMNS}. */
    static Message view(Row row) {
        UUID id = row.getUuid("message_id");
        Set<String> recipients = row.get("recipients", CqlTypes.SET_OF_TEXT);
        Map<String, String> attachments = row.get("attachments", CqlTypes.MAP_OF_TEXT);
        List<String> seenBy = seenBy(
                row.get("seen_by", CqlTypes.LIST_OF_TEXT), row.get("seen_at", CqlTypes.MAP_OF_TEXT_TO_TIMESTAMP));
        return new Message(
                id.toString(),
                row.getUuid("conversation_id").toString(),
                TimeUuids.instant(id),
                row.getString("sender"),
                row.getString("content"),
                recipients == null ? List.of() : recipients.stream().sorted().toList(),
                attachments == null ? Map.of() : new TreeMap<>(attachments),
                seenBy);
    }

    /**
     * Readers in the order they read: those of the seen_by list first, then the seen_at entries by
     * time, then by name; nobody twice.
     */
    static List<String> seenBy(List<String> appended, Map<String, Instant> seenAt) {
        LinkedHashSet<String> readers = new LinkedHashSet<>(appended == null ? List.of() : appended);
        if (seenAt != null) {
            seenAt.entrySet().stream()
                    .sorted(Map.Entry.<String, Instant>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
                    .forEach(e -> readers.add(e.getKey()));
        }
        return List.copyOf(readers);
    }
}
