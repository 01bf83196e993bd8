package dev.cqlpatterns.platform.commands;

import dev.cqlpatterns.platform.scheduling.ClusterJob;
import dev.cqlpatterns.platform.scheduling.JobRunner;
import dev.cqlpatterns.platform.schema.Migrations;
import io.quarkus.runtime.Quarkus;
import io.quarkus.runtime.QuarkusApplication;
import io.quarkus.runtime.annotations.QuarkusMain;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.jboss.logging.Logger;

/**
 * What the artifact does, by its arguments: nothing serves HTTP (a function); {@code migrate}
 * applies cql/ and exits, the step a schema change takes before any function starts;
 * {@code job <name>} runs one tick of a cluster job and exits, for a CronJob when nothing is
 * always on. The same artifact (JVM or native) does all three, so a deployment never runs a
 * schema or job version other than its functions'.
 */
@QuarkusMain
public class Main implements QuarkusApplication {
    private static final Logger LOG = Logger.getLogger(Main.class);
    private static final Duration JOB_DEADLINE = Duration.ofMinutes(5);

    /**
     * A command serves nothing, so it listens on no port, ticks nothing in process (its job runs
     * once, below) and stops without the shutdown delay, which keeps a serving replica up while its
     * endpoints drain: with it, every migrate Job and CronJob tick held its pod 5 s after its work.
     * System properties, set before Quarkus reads its configuration, so no environment turns them
     * back on.
     */
    public static void main(String... args) {
        if (args.length > 0) {
            System.setProperty("quarkus.http.host-enabled", "false");
            System.setProperty("quarkus.scheduler.enabled", "false");
            System.setProperty("quarkus.shutdown.delay", "0s");
        }
        Quarkus.run(Main.class, args);
    }

    @Inject
    Instance<Migrations> migrations;

    @Inject
    Instance<ClusterJob> jobs;

    @Inject
    Clock clock;

    @Override
    public int run(String... args) {
        if (args.length == 0) {
            Quarkus.waitForExit();
            return 0;
        }
        try {
            return switch (args[0]) {
                case "migrate" -> migrate();
                case "job" -> args.length == 2 ? job(args[1]) : usage();
                default -> usage();
            };
        } catch (RuntimeException e) {
            LOG.errorf(e, "%s failed", String.join(" ", args));
            return 1;
        }
    }

    private int migrate() {
        List<String> applied = migrations.get().migrate();
        LOG.infof("Schema up to date; applied %s", applied.isEmpty() ? "nothing new" : String.join(", ", applied));
        return 0;
    }

    private int job(String name) {
        Optional<ClusterJob> job =
                jobs.stream().filter(j -> j.name().equals(name)).findFirst();
        if (job.isEmpty()) {
            LOG.errorf("No job %s in this artifact; it has: %s", name, names());
            return 2;
        }
        JobRunner.Outcome outcome = job.get().tick(clock.instant()).await().atMost(JOB_DEADLINE);
        LOG.infof(
                "%s: %s", name, outcome.ran() ? "ran, " + outcome.items() + " items" : "another replica had this tick");
        return 0;
    }

    private int usage() {
        LOG.errorf("Usage: (no arguments) serve | migrate | job <%s>", String.join("|", names()));
        return 2;
    }

    private List<String> names() {
        return jobs.stream().map(ClusterJob::name).sorted().toList();
    }
}
