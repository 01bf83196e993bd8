package dev.cqlpatterns.delivery;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.OptionsMap;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import dev.cqlpatterns.testsupport.AuditedLoad;
import dev.cqlpatterns.testsupport.CassandraTestResource;
import dev.cqlpatterns.testsupport.ContractClient;
import dev.cqlpatterns.testsupport.PackagedService;
import dev.cqlpatterns.testsupport.PackagedService.Command;
import dev.cqlpatterns.testsupport.PreviousRelease;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A rollout and a rollback as Knative performs them: the previous release (RELEASES.md, packaged
 * from its commit) and this build serve one keyspace at the same time, each request going to one of
 * them by a traffic split, under the mixed load of {@link AuditedLoad}. The previous release
 * migrates the keyspace, serves alone and runs its data migrations (RELEASES.md) to their end, as
 * its upgrade does before the next; this build's {@code migrate} applies the migrations in
 * between while it serves (the expand step); then this build takes half the traffic, then all of
 * it, then the rollback gives half back and then all. Every pair of adjacent releases must keep the
 * write audit through all of it: after each phase the clients stop and the audit reads through each
 * revision that serves (what a user reads must hold whichever answers): nothing lost, duplicated or
 * half-applied, unread counts exact, claims and memberships as acknowledged; and no request is
 * refused on its first attempt. A current build that stopped writing the inbox index the previous
 * release reads (a contract step taken one release early) failed it: conversations missing from
 * inboxes read through the previous release after "half each" and "current alone".
 *
 * <p>{@code -Drevisions.seconds=N} holds each phase N seconds (8 by default).
 */
class RevisionsSideBySideIT {
    private static final String KEYSPACE = "cql_patterns_revisions";
    private static final int CLIENTS = 4;
    private static final Duration PHASE = Duration.ofSeconds(Long.getLong("revisions.seconds", 8));

    @Test
    void should_keep_every_acknowledged_write_while_two_releases_serve_across_a_migration() throws Exception {
        PreviousRelease.Release release = PreviousRelease.named();
        Path previousJar = PreviousRelease.jar();
        Map<String, String> config = new CassandraTestResource().start();
        dropKeyspace(config);
        PackagedService service = new PackagedService(Map.of(
                "CQL_CONTACT_POINTS",
                config.get("quarkus.cassandra.contact-points"),
                "CQL_LOCAL_DATACENTER",
                config.get("quarkus.cassandra.local-datacenter"),
                "CQL_KEYSPACE",
                KEYSPACE,
                "CURSOR_SECRET",
                "revisions-test-cursor-secret",
                "RATE_LIMITS_ENABLED",
                "false",
                "SCHEDULER_IN_PROCESS",
                "false"));
        Command previousMigrate = service.command(previousJar, "migrate");
        assertThat(previousMigrate.exitCode())
                .as("the previous release's migrate; output:%n%s", previousMigrate.output())
                .isZero();

        int previousPort = PackagedService.freePort();
        int currentPort = PackagedService.freePort();
        AtomicInteger percentToCurrent = new AtomicInteger(0);
        ContractClient http = new ContractClient(
                () -> ThreadLocalRandom.current().nextInt(100) < percentToCurrent.get() ? currentPort : previousPort);
        Process previous = serve(service, previousJar, previousPort, "previous");
        Process current = null;
        AuditedLoad load = new AuditedLoad("revisions " + release.version() + " and current", CLIENTS, http);
        Rollout rollout = new Rollout(load, percentToCurrent);
        try {
            load.setUp();
            rollout.phase(release.version() + " alone", 0);
            // the upgrade to the release before ends with its data migrations run to their end
            for (String job : release.dataMigrations()) {
                Command done = service.command(previousJar, "job", job);
                assertThat(done.exitCode())
                        .as("%s's job %s; output:%n%s", release.version(), job, done.output())
                        .isZero();
                System.out.printf("revisions: %s's job %s:%n%s%n", release.version(), job, done.output());
            }

            Command migrate = service.command(PackagedService.JAR, "migrate");
            assertThat(migrate.exitCode())
                    .as("the current build's migrate while %s serves; output:%n%s", release, migrate.output())
                    .isZero();
            System.out.printf("revisions: migrated while %s served:%n%s%n", release.version(), migrate.output());
            rollout.phase(release.version() + " alone, migrated", 0);

            current = serve(service, PackagedService.JAR, currentPort, "current");
            rollout.phase("half each", 50);
            rollout.phase("current alone", 100);
            // the rollback: traffic goes back while the current revision still serves
            rollout.phase("rolling back, half each", 50);
            rollout.phase("rolled back to " + release.version(), 0);
            load.report();
            rollout.problems.addAll(load.firstAttemptFailures(rollout.phases, 0, 0));
        } finally {
            load.stop();
            PackagedService.stop(previous);
            if (current != null) {
                PackagedService.stop(current);
            }
        }
        rollout.problems.addAll(membershipSetsDisagreeing(config));
        assertThat(rollout.problems)
                .as("what the clients were told against what is stored, after each phase, read through each revision")
                .isEmpty();
    }

    /**
     * Every user's membership sets (cql/056_membership_sets.cql) against the inbox summaries and the
     * groups' claims, read straight from the node once both revisions stopped: both releases write
     * both, so they hold the same conversations and groups.
     */
    private static List<String> membershipSetsDisagreeing(Map<String, String> config) {
        List<String> problems = new ArrayList<>();
        int users = 0;
        try (CqlSession session = session(config)) {
            for (Row user : session.execute("SELECT DISTINCT username FROM " + KEYSPACE + ".inbox_by_user")) {
                String name = user.getString("username");
                users++;
                Set<UUID> source = new HashSet<>();
                rows(
                                session,
                                "SELECT conversation_id, joined_at FROM %s.inbox_by_user WHERE username = ? AND kind = 0",
                                name)
                        .stream()
                        .filter(r -> !r.isNull(1))
                        .forEach(r -> source.add(r.getUuid(0)));
                Set<UUID> held = new HashSet<>();
                rows(
                                session,
                                "SELECT conversation_id FROM %s.conversation_memberships_by_user "
                                        + "WHERE username = ? AND generation = ?",
                                name,
                                generation(session, "conversation_memberships_by_user", name))
                        .forEach(r -> held.add(r.getUuid(0)));
                if (!held.equals(source)) {
                    problems.add(name + "'s conversation_memberships_by_user " + held + ", their inbox " + source);
                }
            }
            for (Row user : session.execute("SELECT DISTINCT username FROM " + KEYSPACE + ".groups_by_user")) {
                String name = user.getString("username");
                users++;
                Set<String> claims = new HashSet<>();
                rows(session, "SELECT groupname FROM %s.groups_by_user WHERE username = ?", name)
                        .forEach(r -> claims.add(r.getString(0)));
                Set<String> held = new HashSet<>();
                rows(
                                session,
                                "SELECT groupname FROM %s.group_memberships_by_user WHERE username = ? AND generation = ?",
                                name,
                                generation(session, "group_memberships_by_user", name))
                        .forEach(r -> held.add(r.getString(0)));
                if (!held.equals(claims)) {
                    problems.add(name + "'s group_memberships_by_user " + held + ", their claims " + claims);
                }
            }
        }
        System.out.printf(
                "revisions: %d users' membership sets against the tables they replace, %d disagreeing%n",
                users, problems.size());
        return problems;
    }

    private static int generation(CqlSession session, String set, String key) {
        List<Row> state = rows(
                session, "SELECT current FROM %s.partition_generations WHERE set_name = ? AND set_key = ?", set, key);
        return state.isEmpty() ? 0 : state.get(0).getInt(0);
    }

    private static List<Row> rows(CqlSession session, String cql, Object... values) {
        return session.execute(SimpleStatement.newInstance(String.format(cql, KEYSPACE), values))
                .all();
    }

    /** The phases of a rollout: a traffic split, the load for PHASE, then the audit through each revision. */
    private static final class Rollout {
        final AuditedLoad load;
        final AtomicInteger percentToCurrent;
        final List<String> phases = new ArrayList<>();
        final List<String> problems = new ArrayList<>();
        boolean currentServes;

        Rollout(AuditedLoad load, AtomicInteger percentToCurrent) {
            this.load = load;
            this.percentToCurrent = percentToCurrent;
        }

        void phase(String name, int toCurrent) throws Exception {
            phases.add(name);
            currentServes |= toCurrent > 0;
            percentToCurrent.set(toCurrent);
            load.start();
            load.phase(name, PHASE);
            load.stop();
            // what a user reads must hold whichever revision answers: the audit through each
            for (int through : currentServes ? List.of(0, 100) : List.of(0)) {
                percentToCurrent.set(through);
                String revision = through == 0 ? "the previous release" : "the current build";
                load.audit().forEach(p -> problems.add("after " + name + ", through " + revision + ": " + p));
            }
        }
    }

    /** {@code jar} serving on {@code port} with the settings both revisions share, as Knative gives them. */
    private static Process serve(PackagedService service, Path jar, int port, String name) throws Exception {
        long began = System.nanoTime();
        Process process =
                service.serve(jar, port, PackagedService.ROOT.resolve("target/revisions-" + name + ".log"), Map.of());
        assertThat(PackagedService.firstAnswer(port, "/q/health/ready", began, Duration.ofSeconds(60)))
                .as("readiness of the %s revision (log target/revisions-%s.log)", name, name)
                .isEqualTo(200);
        return process;
    }

    /** A fresh keyspace each run, so the audit's lists hold only this run's writes. */
    private static void dropKeyspace(Map<String, String> config) {
        try (CqlSession session = session(config)) {
            session.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + KEYSPACE)
                    .setTimeout(Duration.ofSeconds(30)));
        }
    }

    private static CqlSession session(Map<String, String> config) {
        String[] hostPort =
                config.get("quarkus.cassandra.contact-points").split(",")[0].split(":");
        return CqlSession.builder()
                .withConfigLoader(DriverConfigLoader.fromMap(OptionsMap.driverDefaults()))
                .addContactPoint(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1])))
                .withLocalDatacenter(config.get("quarkus.cassandra.local-datacenter"))
                .build();
    }
}
