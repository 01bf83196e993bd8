package dev.cqlpatterns.posts;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.List;
import java.util.UUID;

/** The post_and_comments table: every statement on it, and the decoding of its rows. */
@IfBuildProperty(name = FunctionGroup.Property.POSTS, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class PostAndComments {

    private static final String COLUMNS =
            "SELECT author, post_body, comment_count, comment_time, commenter, comment_body "
                    + "FROM post_and_comments WHERE post_id = ?";
    /** ReadPost: the post and its newest comments. */
    private static final Query FIRST_COMMENTS = Cql.idempotent(COLUMNS + " LIMIT ?");
    /** ReadPost: the comments before a cursor. */
    private static final Query COMMENTS_BEFORE = Cql.idempotent(COLUMNS + " AND comment_time < ? LIMIT ?");
    /** AddComment: the count its conditional write is based on. */
    private static final Query COMMENT_COUNT =
            Cql.idempotent("SELECT comment_count FROM post_and_comments WHERE post_id = ? LIMIT 1");
    /** AddComment: the comment and the next count, if the count is still the one read. */
    private static final Query ADD_COMMENT = Cql.conditional("UPDATE post_and_comments SET commenter = ?, "
            + "comment_body = ?, comment_count = ? WHERE post_id = ? AND comment_time = ? IF comment_count = ?");
    /** AddComment: whose comment a timeuuid holds (an unknown outcome, settled by a serial read). */
    private static final Query COMMENTER =
            Cql.idempotent("SELECT commenter FROM post_and_comments WHERE post_id = ? AND comment_time = ?");
    /** CreatePost: the static columns, comment count 0. */
    private static final Query CREATE_POST = Cql.idempotent(
            "INSERT INTO post_and_comments (post_id, author, post_body, comment_count) VALUES (?, ?, ?, 0) USING TIMESTAMP ?");

    @Inject
    Cql cql;

    /** A post's static columns and the comments read with them, newest first. */
    record PostRows(String author, String body, int commentCount, List<ReadPost.Comment> comments) {}

    /** A new post: its static columns, written at {@code writtenAt} (microseconds). */
    Uni<Void> createPost(UUID post, String author, String body, long writtenAt) {
        return cql.write(CREATE_POST, post, author, body, writtenAt).replaceWithVoid();
    }

    /**
     * The post and at most {@code limit} comments, newest first, before {@code before} (null: the
     * newest); null when there is no such post.
     */
    Uni<PostRows> read(UUID post, UUID before, int limit) {
        return (before == null ? cql.read(FIRST_COMMENTS, post, limit) : cql.read(COMMENTS_BEFORE, post, before, limit))
                .map(rs -> {
                    List<Row> rows = Cql.rows(rs);
                    if (rows.isEmpty()) {
                        return null;
                    }
                    Row first = rows.get(0);
                    List<ReadPost.Comment> comments = rows.stream()
                            .filter(row -> !row.isNull("comment_time"))
                            .map(row -> new ReadPost.Comment(
                                    row.getUuid("comment_time").toString(),
                                    row.getString("commenter"),
                                    row.getString("comment_body"),
                                    TimeUuids.instant(row.getUuid("comment_time"))))
                            .toList();
                    return new PostRows(
                            first.getString("author"),
                            first.getString("post_body"),
                            first.getInt("comment_count"),
                            comments);
                });
    }

    /**
     * The post's comment count for an attempt of AddComment's compare-and-set (null: no such post):
     * after a lost race, the count Cassandra answered; on a retry, read at the serial level.
     */
    Uni<Integer> commentCount(UUID post, CompareAndSet.Attempt attempt) {
        if (attempt.lost() != null) {
            return Uni.createFrom().item(attempt.lost().one().getInt("comment_count"));
        }
        return cql.read(COMMENT_COUNT, b -> attempt.retry() ? cql.serially().apply(b) : b, post)
                .map(rs -> {
                    Row row = rs.one();
                    return row == null ? null : row.getInt("comment_count");
                });
    }

    /**
     * The comment at {@code commentTime} with the count one above {@code expectedCount}, if the count is
     * still that: Cassandra's answer, for CompareAndSet.
     */
    Uni<AsyncResultSet> addComment(UUID post, UUID commentTime, String commenter, String body, int expectedCount) {
        return cql.write(ADD_COMMENT, commenter, body, expectedCount + 1, post, commentTime, expectedCount);
    }

    /** Whether the comment at {@code commentTime} is there, read at the serial level (sees conditional writes). */
    Uni<Boolean> hasComment(UUID post, UUID commentTime) {
        return cql.read(COMMENTER, cql.serially(), post, commentTime).map(rs -> rs.one() != null);
    }
}
