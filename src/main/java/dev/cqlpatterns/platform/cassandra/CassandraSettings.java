package dev.cqlpatterns.platform.cassandra;

import io.smallrye.config.ConfigMapping;
import io.smallrye.config.WithDefault;
import java.time.Duration;
import java.util.Map;

/** Where the service keeps its tables, and how they are replicated. */
@ConfigMapping(prefix = "cql-patterns.cassandra")
public interface CassandraSettings {

    /** The keyspace every table lives in. */
    @WithDefault("cql_patterns")
    String keyspace();

    Replication replication();

    /**
     * How long a request or tick that arrives before the session is connected waits for it
     * (without blocking a thread) before it answers 503 with Retry-After.
     */
    @WithDefault("PT5S")
    Duration sessionWait();

    /**
     * Attempts of one compare-and-set (see CompareAndSet) that keeps losing races to concurrent
     * changes of the same row before it answers 409. Two writers at once need two.
     */
    @WithDefault("10")
    int casAttempts();

    /**
     * How long a statement's PREPARE may go unanswered before the next node is asked too. A PREPARE
     * goes to one node, with no speculative execution (and not to every node: application.conf,
     * prepare-on-all-nodes): a node that never answers (cut off, not yet marked down) would hold a
     * statement's first use for the whole request timeout, then fail it (503).
     */
    @WithDefault("PT0.5S")
    Duration prepareHedgeDelay();

    /** Nodes asked to prepare a statement before its request fails (PreparedStatements, Hedged), each with the request timeout. */
    @WithDefault("3")
    int prepareAttempts();

    Migrations migrations();

    interface Replication {
        /** SimpleStrategy for one local node; NetworkTopologyStrategy in production. */
        @WithDefault("SimpleStrategy")
        String strategy();

        /** Replication factor for SimpleStrategy. */
        @WithDefault("1")
        int factor();

        /** Replicas per datacenter for NetworkTopologyStrategy, e.g. dc1=3. */
        Map<String, Integer> datacenters();
    }

    interface Migrations {
        /** Apply cql/ at start-up; production can leave it to a one-off Job instead. */
        @WithDefault("true")
        boolean atStartup();

        /** How long one replica may hold the migration lease before others may take it over. */
        @WithDefault("PT60S")
        Duration leaseTtl();

        /** How long a starting replica waits for another one's migration to finish. */
        @WithDefault("PT5M")
        Duration waitAtMost();

        /**
         * How long a schema change waits for every node that is up to report its schema version.
         * The lease is renewed meanwhile.
         */
        @WithDefault("PT3M")
        Duration agreementWait();

        /**
         * How long a node may lag behind the coordinator's schema version before the run changes
         * the coordinator's schema once more, harmlessly (Migrations says why), and again after as
         * long plus Cassandra's delay before a pull ({@code cassandra.migration_delay_ms}, 60 s).
         */
        @WithDefault("PT20S")
        Duration agreementNudge();
    }
}
