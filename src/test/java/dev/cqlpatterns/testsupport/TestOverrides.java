package dev.cqlpatterns.testsupport;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Every setting a test runs with that production does not: the {@code %test} and {@code %dev} lines
 * of application.properties, the test profiles' overrides and the environment of the packaged
 * service in the ITs. Each is here with its reason, and nothing else may differ: the suite runs the
 * design choices, limits and defaults that bin/run, the images and k8s/ ship. TestOverridesTest reads
 * application.properties and every test profile against this list; {@link PackagedService} refuses
 * an environment entry that is not in it.
 *
 * <p>Where they point (ports, keys, keyspaces, clocks, the database and its replication) is fine;
 * a limit is lowered only by a test of that limit, which runs it small so that it can reach it.
 */
public final class TestOverrides {
    private static final String WHERE = "where the test runs: its own database, keyspace, port or key";
    private static final String LIMIT_TEST = "a test of this limit runs it small enough to reach it";

    /** Setting (property, or environment variable of the packaged service) -> why a test may set it. */
    public static final Map<String, String> ALLOWED = Map.ofEntries(
            // where it runs
            Map.entry("cql-patterns.cassandra.keyspace", WHERE),
            Map.entry("cql-patterns.paging.cursor-secret", WHERE),
            Map.entry("CQL_CONTACT_POINTS", WHERE),
            Map.entry("CQL_LOCAL_DATACENTER", WHERE),
            Map.entry("CQL_KEYSPACE", WHERE),
            Map.entry("CURSOR_SECRET", WHERE),
            Map.entry("JWT_PUBLIC_KEY_LOCATION", WHERE),
            Map.entry("JWT_ISSUER", WHERE),
            Map.entry("PORT", WHERE),
            Map.entry(
                    "CQL_REPLICATION_FACTOR",
                    "a test cluster of N nodes replicates N times, as a production datacenter does"),
            Map.entry("CQL_CONSISTENCY", "a test cluster reads and writes at LOCAL_QUORUM, as production does"),
            Map.entry(
                    "CQL_MIGRATE_AT_STARTUP",
                    "tests apply the schema at start-up; production applies it as its own step"),
            Map.entry(
                    "cql-patterns.cassandra.migrations.at-startup",
                    "tests apply the schema at start-up; production applies it as its own step"),
            Map.entry(
                    "quarkus.shutdown.delay-enabled",
                    "a test application has no load balancer to drain; the packaged ITs keep the delay"),
            Map.entry("CQL_SESSION_WAIT", "ColdStartIT points a service at no Cassandra and waits 1 s, not 5, for it"),
            Map.entry("JAVA_TOOL_OPTIONS", "the fault ITs log the service's exceptions to a file"),
            // how much the suite does as a few callers
            Map.entry(
                    "RATE_LIMITS_ENABLED",
                    "load through the packaged service (its documented switch for load tests); RateLimitsTest "
                            + "tests the limits"),
            Map.entry(
                    "cql-patterns.rate-limits.reads.capacity",
                    "the suite makes thousands of requests as a few callers; RateLimitsTest tests the limits "
                            + "small"),
            Map.entry(
                    "cql-patterns.rate-limits.writes.capacity",
                    "the suite makes thousands of requests as a few callers; RateLimitsTest tests the limits "
                            + "small"),
            Map.entry(
                    "cql-patterns.rate-limits.body-bytes.capacity",
                    "the suite makes thousands of requests as a few callers; RateLimitsTest tests the limits "
                            + "small"),
            Map.entry("cql-patterns.cassandra.migrations.lease-ttl", LIMIT_TEST),
            Map.entry("cql-patterns.rate-limits.reads.period", LIMIT_TEST),
            Map.entry("cql-patterns.rate-limits.writes.period", LIMIT_TEST),
            Map.entry("cql-patterns.rate-limits.body-bytes.period", LIMIT_TEST),
            Map.entry(
                    "quarkus.http.proxy.proxy-address-forwarding",
                    "RateLimitsTest and the clock tests name client addresses, as a gateway in front does"),
            Map.entry(
                    "quarkus.http.proxy.allow-x-forwarded",
                    "RateLimitsTest and the clock tests name client addresses, as a gateway in front does"),
            // scheduling: the ITs and the clock tests run ticks themselves
            Map.entry(
                    "SCHEDULER_IN_PROCESS",
                    "packaged services run jobs as functions do, from outside; the tests tick them"),
            Map.entry("quarkus.scheduler.enabled", "the clock tests tick the jobs themselves"),
            // observability
            Map.entry(
                    "quarkus.otel.sdk.disabled",
                    "tests read trace ids in problems and logs; a deployment turns tracing on with "
                            + "OTEL_SDK_DISABLED=false (k8s/base does)"),
            Map.entry("quarkus.otel.exporter.otlp.enabled", "tests trace without a collector to export to"),
            Map.entry("quarkus.log.category.\"dev.cqlpatterns\".level", "test logs keep the service's own lines"),
            Map.entry("mp.openapi.scan.exclude.packages", "test-only endpoints stay out of the contract"),
            // a limit run small by the test of that limit
            Map.entry("cql-patterns.paging.max-buckets", LIMIT_TEST),
            Map.entry("cql-patterns.groups.latest-max-days", LIMIT_TEST),
            Map.entry("cql-patterns.groups.max-groups-per-user", LIMIT_TEST),
            Map.entry("cql-patterns.posts.max-comments", LIMIT_TEST),
            Map.entry("cql-patterns.messenger.max-conversations-per-user", LIMIT_TEST),
            Map.entry("cql-patterns.messenger.max-added-conversations-per-user", LIMIT_TEST),
            Map.entry("cql-patterns.messenger.unread-count-cap", LIMIT_TEST),
            Map.entry("cql-patterns.pastebin.listing-periods", LIMIT_TEST),
            Map.entry("cql-patterns.generations.removals", LIMIT_TEST),
            Map.entry("cql-patterns.generations.removals-min", LIMIT_TEST),
            Map.entry("cql-patterns.generations.members-per-removal", LIMIT_TEST),
            Map.entry("cql-patterns.generations.drop-delay", LIMIT_TEST),
            // which function groups a build holds: a build-time choice of what to deploy
            Map.entry("cql-patterns.functions.ring", "FunctionGroupsTest builds one group alone"),
            Map.entry("cql-patterns.functions.messenger", "FunctionGroupsTest builds one group alone"),
            Map.entry("cql-patterns.functions.courses", "FunctionGroupsTest builds one group alone"),
            Map.entry("cql-patterns.functions.pastebin", "FunctionGroupsTest builds one group alone"),
            Map.entry("cql-patterns.functions.people", "FunctionGroupsTest builds one group alone"),
            Map.entry("cql-patterns.functions.songs", "FunctionGroupsTest builds one group alone"),
            Map.entry("cql-patterns.functions.posts", "FunctionGroupsTest builds one group alone"));

    private TestOverrides() {}

    /** The settings among {@code keys} that are not listed; a profile's {@code %test.} prefix is ignored. */
    public static Set<String> unlisted(Iterable<String> keys) {
        Set<String> unlisted = new TreeSet<>();
        for (String key : keys) {
            String bare = key;
            for (String profile : List.of("%test.", "%dev.")) {
                if (bare.startsWith(profile)) {
                    bare = bare.substring(profile.length());
                }
            }
            if (!ALLOWED.containsKey(bare)) {
                unlisted.add(key);
            }
        }
        return unlisted;
    }

    /** Refuses settings that are not listed: a test must run what ships. */
    public static void requireListed(Iterable<String> keys) {
        Set<String> unlisted = unlisted(keys);
        if (!unlisted.isEmpty()) {
            throw new IllegalArgumentException("settings a test may not change without a reason in TestOverrides: "
                    + unlisted + " (tests run the design choices, limits and defaults that ship)");
        }
    }
}
