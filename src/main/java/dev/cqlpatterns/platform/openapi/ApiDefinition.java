package dev.cqlpatterns.platform.openapi;

import jakarta.ws.rs.core.Application;
import org.eclipse.microprofile.openapi.annotations.OpenAPIDefinition;
import org.eclipse.microprofile.openapi.annotations.info.Info;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** The contract's tags: one per feature, each naming the seed whose query patterns it serves. */
@OpenAPIDefinition(info = @Info(title = "cql-patterns", version = "0.1.0"), tags = {
        @Tag(name = "ring", description = "The token ring and partition placement (seed 004)"),
        @Tag(name = "messenger", description = "Conversations, messages, inbox, unread counts (seeds 000 and 001)"),
        @Tag(name = "courses", description = "Courses with modules and course page views (seed 002)"),
        @Tag(name = "clickstream", description = "Clicks bucketed by month (seed 002)"),
        @Tag(name = "pastebin", description = "Pastes with secrets, visibility and expiry (seed 003); a scheduled sweeper keeps expired pastes off the list"),
        @Tag(name = "users", description = "Users by username and by email, addresses (seed 004)"),
        @Tag(name = "groups", description = "Groups in username order and latest joiners (seed 004)"),
        @Tag(name = "songs", description = "Songs and songs by tag (seed 004)"),
        @Tag(name = "posts", description = "Posts with comments (seed 004)") })
public class ApiDefinition extends Application {
}
