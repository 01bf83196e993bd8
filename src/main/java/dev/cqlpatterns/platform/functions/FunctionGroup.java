package dev.cqlpatterns.platform.functions;

import java.util.List;

/**
 * The function groups: query patterns deployed, scaled and stopped together. Every deployment
 * runs the same code with some groups selected at build time; a group left out has none of its
 * beans, routes, prepared statements or jobs in that artifact (its classes carry
 * {@code @IfBuildProperty(name = FunctionGroup.Property.X, ...)}, which Quarkus REST, ArC and
 * SmallRye OpenAPI all honour). Groups follow the data: users and groups are one group because
 * joining a group reads the user (only an existing user joins).
 *
 * <p>Select with build properties {@code cql-patterns.functions.<name>=true|false} (all default
 * to true); {@code bin/function-build <group>} builds one group.
 */
public enum FunctionGroup {
    RING("ring", List.of("ring"), List.of("/ring")),
    MESSENGER("messenger", List.of("messenger", "messenger.inbox"), List.of("/conversations", "/inbox", "/messages")),
    COURSES("courses", List.of("courses", "clickstream"), List.of("/courses", "/clicks")),
    PASTEBIN("pastebin", List.of("pastebin"), List.of("/pastes")),
    PEOPLE("people", List.of("users", "groups"), List.of("/users", "/groups")),
    SONGS("songs", List.of("songs"), List.of("/songs")),
    POSTS("posts", List.of("posts"), List.of("/posts"));

    /** The build properties, as constants an annotation can name. */
    public static final class Property {
        public static final String RING = "cql-patterns.functions.ring";
        public static final String MESSENGER = "cql-patterns.functions.messenger";
        public static final String COURSES = "cql-patterns.functions.courses";
        public static final String PASTEBIN = "cql-patterns.functions.pastebin";
        public static final String PEOPLE = "cql-patterns.functions.people";
        public static final String SONGS = "cql-patterns.functions.songs";
        public static final String POSTS = "cql-patterns.functions.posts";

        private Property() {}
    }

    private final String id;
    private final List<String> packages;
    private final List<String> pathPrefixes;

    FunctionGroup(String id, List<String> packages, List<String> pathPrefixes) {
        this.id = id;
        this.packages = packages;
        this.pathPrefixes = pathPrefixes;
    }

    /** The group's name in build properties, images and Kubernetes objects. */
    public String id() {
        return id;
    }

    /** The build property that selects this group. */
    public String property() {
        return "cql-patterns.functions." + id;
    }

    /** Feature packages under {@code dev.cqlpatterns} that belong to this group, each named whole (a.b). */
    public List<String> packages() {
        return packages;
    }

    /** The URL path prefixes this group serves; no two groups share one. */
    public List<String> pathPrefixes() {
        return pathPrefixes;
    }
}
