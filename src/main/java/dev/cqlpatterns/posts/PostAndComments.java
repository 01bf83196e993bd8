package dev.cqlpatterns.posts;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;

/** The post_and_comments table (cql/043_posts.cql): every statement on it. */
final class PostAndComments {
    private PostAndComments() {}

    private static final String COLUMNS =
            "SELECT author, post_body, comment_count, comment_time, commenter, comment_body "
                    + "FROM post_and_comments WHERE post_id = ?";
    /** ReadPost: the post and its newest comments. */
    static final Query FIRST_COMMENTS = Cql.idempotent(COLUMNS + " LIMIT ?");
    /** ReadPost: the comments before a cursor. */
    static final Query COMMENTS_BEFORE = Cql.idempotent(COLUMNS + " AND comment_time < ? LIMIT ?");
    /** AddComment: the count its conditional write is based on. */
    static final Query COMMENT_COUNT =
            Cql.idempotent("SELECT comment_count FROM post_and_comments WHERE post_id = ? LIMIT 1");
    /** AddComment: the comment and the next count, if the count is still the one read. */
    static final Query ADD_COMMENT = Cql.conditional("UPDATE post_and_comments SET commenter = ?, comment_body = ?, "
            + "comment_count = ? WHERE post_id = ? AND comment_time = ? IF comment_count = ?");
    /** AddComment: whose comment a timeuuid holds (an unknown outcome, settled by a serial read). */
    static final Query COMMENTER =
            Cql.idempotent("SELECT commenter FROM post_and_comments WHERE post_id = ? AND comment_time = ?");
    /** CreatePost: the static columns, comment count 0. */
    static final Query CREATE_POST = Cql.idempotent(
            "INSERT INTO post_and_comments (post_id, author, post_body, comment_count) VALUES (?, ?, ?, 0) USING TIMESTAMP ?");
}
