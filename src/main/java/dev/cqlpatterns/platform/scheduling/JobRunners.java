package dev.cqlpatterns.platform.scheduling;

import dev.cqlpatterns.platform.cassandra.Cql;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;

/** This replica's job runner: one lease owner per process, so replicas compete for each tick. */
public class JobRunners {

    @Produces
    @Singleton
    JobRunner jobRunner(Cql cql, MeterRegistry meters) {
        return new JobRunner(ClusterLease.withRandomOwner(cql), meters);
    }
}
