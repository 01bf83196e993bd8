package dev.cqlpatterns.platform.scheduling;

import io.quarkus.runtime.StartupEvent;
import io.quarkus.scheduler.Scheduled;
import io.quarkus.scheduler.Scheduler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.Instance;
import java.time.Clock;

/**
 * Ticks every {@link ClusterJob} of this deployment in process, each at its own interval, while the
 * scheduler runs ({@code SCHEDULER_IN_PROCESS=true}, quarkus.scheduler.start-mode=forced: no job is
 * an {@code @Scheduled} method). A tick never overlaps the previous one of its job on this replica,
 * and none fires before start-up is over (the Cassandra session is still being built then).
 */
@ApplicationScoped
public class InProcessTicks {

    void schedule(@Observes StartupEvent started, Scheduler scheduler, Instance<ClusterJob> jobs, Clock clock) {
        if (!scheduler.isStarted()) {
            return;
        }
        for (ClusterJob job : jobs) {
            scheduler
                    .newJob(job.name())
                    .setInterval(job.every().toString())
                    .setConcurrentExecution(Scheduled.ConcurrentExecution.SKIP)
                    .setSkipPredicate(Scheduled.ApplicationNotRunning.class)
                    .setAsyncTask(execution -> job.scheduledTick(clock.instant()))
                    .schedule();
        }
    }
}
