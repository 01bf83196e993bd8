package dev.cqlpatterns.delivery;

import static dev.cqlpatterns.testsupport.AuditedLoad.signUpBody;
import static dev.cqlpatterns.testsupport.AuditedLoad.suffix;
import static dev.cqlpatterns.testsupport.ContractClient.enc;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cqlpatterns.testsupport.AuditedLoad;
import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.ContractClient;
import dev.cqlpatterns.testsupport.TestCluster;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The packaged service on a 3-node cluster at RF 3 and LOCAL_QUORUM that the test starts itself,
 * under a mixed load of 8 clients (keyed paste creates and message sends, sign-ups, paste and
 * history reads; one of them while a node starts): first the node faults, one node killed (-9),
 * one paused (SIGSTOP), two stopped; then, on the same cluster and keyspace, the link faults.
 * Clients do what the contract tells them: on 503 or no answer they retry the same request with
 * the same Idempotency-Key after Retry-After ({@link AuditedLoad}, which audits what they were told
 * against what is stored afterwards).
 *
 * <p>The link faults need each node in its own network namespace (bin/cassandra-local, netns mode),
 * which needs root: as root the cluster starts that way, elsewhere on loopback addresses and the link
 * faults are skipped. A node's links fail rather than its process: node 3 cut off from the other
 * nodes but not from the service (so it still coordinates requests it cannot serve), the service
 * cut off from node 3, and node 3's links slowed by 200 ms each way with 5 % packet loss (a delaying
 * proxy: this kernel has no netem). While a link fault holds, two nodes still form a quorum, yet a
 * node that is cut off but not marked down holds what it coordinates or replicates until a timeout:
 * at most 0.5 % of the writes and 1 % of the reads of a link fault may fail on their first attempt
 * (each was retried after Retry-After); none may for a node's death or pause. The service cut off
 * from a node once found that a prepare's second and third attempts were given the first one's
 * failure (PreparedStatements.PrepareAttempt says why); prepares are hedged (PreparedStatements, Hedged).
 *
 * <p>Bounded for CI (about 7 minutes with the cluster's start): the two partitions, 15 s each.
 * {@code -Dfaults.seconds=90} holds the killed node down and the load running longer,
 * {@code -Dnetwork.faults=isolate,cut-service,slow} adds the slow link and {@code -Dnetwork.seconds=N}
 * holds each link fault N seconds.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ClusterFaultsIT {
    private static final int NODES = 3;
    private static final int CLIENTS = 8;
    /** The clients that send while a node starts (AuditedLoad.whileOnly says why not all). */
    private static final int BOOTING_CLIENTS = 1;
    /** How long the killed node stays down: longer than the ~17 s the others take to mark it down. */
    private static final Duration KILLED_FOR = Duration.ofSeconds(Long.getLong("faults.seconds", 25));

    private static final Duration PAUSED_FOR = Duration.ofSeconds(10);
    private static final Duration QUORUM_LOST_FOR = Duration.ofSeconds(10);
    private static final int RACE_CYCLES = Integer.getInteger("signups.cycles", 1);
    private static final Duration LINK_FAULT_FOR = Duration.ofSeconds(Long.getLong("network.seconds", 15));
    private static final List<String> LINK_FAULTS =
            List.of(System.getProperty("network.faults", "isolate,cut-service").split(","));
    /** Network namespaces, and so the link faults, need root. */
    private static final boolean ROOT = "root".equals(System.getProperty("user.name"));

    private static final ObjectMapper JSON = new ObjectMapper();

    private static TestCluster cluster;
    private static ServiceOnCluster service;
    private static final ContractClient client = new ContractClient(() -> service.port);

    @BeforeAll
    static void startClusterAndService() throws Exception {
        cluster = ROOT ? TestCluster.inNamespaces(NODES) : new TestCluster(NODES);
        cluster.start();
        service = ServiceOnCluster.start(cluster, NODES, "cql_patterns_faults", "cluster-faults");
    }

    @AfterAll
    static void stopEverything() throws Exception {
        if (service != null) {
            service.stop();
        }
        if (cluster != null) {
            if (ROOT) {
                cluster.net("heal");
            }
            cluster.stop();
        }
    }

    /**
     * Contended sign-ups on a healthy cluster, cycle after cycle: the answers, and no driver
     * connection closed under them. Contended LWTs are where Cassandra answers a CAS write timeout,
     * which the driver could not decode in protocol V5 (ProtocolVersionTest): the connection closed
     * and every request in flight on it failed. bin/fault-tests runs 20 cycles.
     */
    @Test
    @Order(1)
    void should_give_a_name_to_one_caller_when_sign_ups_race() throws Exception {
        for (int cycle = 1; cycle <= RACE_CYCLES; cycle++) {
            signUpRaces();
            assertThat(service.undecodedFrames())
                    .as("answers the driver could not decode, after %d cycles of sign-up races", cycle)
                    .isEmpty();
            assertThat(service.lostChannels())
                    .as(
                            "connections closed under requests on a healthy cluster, after %d cycles of sign-up races",
                            cycle)
                    .isEmpty();
            System.out.printf(
                    "cluster faults: sign-up races, cycle %d of %d: no connection lost%n", cycle, RACE_CYCLES);
        }
    }

    private static void signUpRaces() throws Exception {
        int pairs = 30;
        ExecutorService threads = Executors.newFixedThreadPool(8);
        try {
            List<Future<List<List<Integer>>>> sameBody = new ArrayList<>();
            List<Future<List<List<Integer>>>> otherBody = new ArrayList<>();
            for (int i = 0; i < pairs; i++) {
                String same = "twice-" + i + "-" + suffix();
                sameBody.add(threads.submit(() -> race(same, same + "@example.com", same + "@example.com")));
                String other = "race-" + i + "-" + suffix();
                otherBody.add(threads.submit(() -> race(other, other + "-a@example.com", other + "-b@example.com")));
            }
            for (Future<List<List<Integer>>> f : sameBody) {
                // a double submit of one body: both answers tell the caller they hold the name
                assertThat(f.get())
                        .as("answers to a double submit, each client's in order")
                        .allMatch(answers -> last(answers) == 200 || last(answers) == 201);
            }
            for (Future<List<List<Integer>>> f : otherBody) {
                List<List<Integer>> answers = f.get();
                // One creates (201) and one is refused (409). A creator told 503 first (its claim's
                // outcome was not learnt in time) is told on its retry, a new request, that the same
                // sign-up was made before: 200, as the contract says of a retry after a lost answer.
                assertThat(answers)
                        .as("answers to two bodies for one name, each client's in order")
                        .anyMatch(a -> last(a) == 409)
                        .anyMatch(a -> last(a) == 201 || (last(a) == 200 && a.contains(503)))
                        .allMatch(a -> last(a) != 200 || a.contains(503));
            }
        } finally {
            threads.shutdown();
        }
    }

    private static int last(List<Integer> answers) {
        return answers.get(answers.size() - 1);
    }

    /**
     * Two sign-ups of {@code name} at the same moment with the two emails; checks the claims after;
     * returns each client's statuses in the order it got them (503s it retried, then its answer).
     */
    private static List<List<Integer>> race(String name, String email1, String email2) throws Exception {
        List<List<Integer>> answers = Concurrently.run(List.of(email1, email2), email -> {
            try {
                List<Integer> statuses = new ArrayList<>();
                client.untilAnswered("POST", "/users", name, signUpBody(name, email), statuses);
                return statuses;
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        String held = JSON.readTree(client.readBack("/users/" + name, name).body())
                .path("email")
                .asText();
        assertThat(held).isIn(email1, email2);
        assertThat(client.readBack("/users?email=" + enc(held), name).statusCode())
                .as("the email lookup of %s's email %s", name, held)
                .isEqualTo(200);
        if (!email1.equals(email2)) {
            String other = held.equals(email1) ? email2 : email1;
            assertThat(client.readBack("/users?email=" + enc(other), name).statusCode())
                    .as("the email lookup of the losing email %s", other)
                    .isEqualTo(404);
            assertThat(last(answers.get(held.equals(email1) ? 0 : 1)))
                    .as("the answer to the sign-up whose email %s holds the name, of %s", held, answers)
                    .isIn(200, 201);
        }
        return answers;
    }

    @Test
    @Order(2)
    void should_keep_every_acknowledged_write_exactly_once_through_node_faults() throws Exception {
        AuditedLoad load = new AuditedLoad("cluster faults", CLIENTS, client);
        load.explainFailuresWith(service::warningsBetween);
        load.setUp();
        load.start();
        try {
            load.phase("steady", Duration.ofSeconds(5));

            cluster.node(3, "kill");
            load.phase("one node killed", KILLED_FOR);
            load.whileOnly(BOOTING_CLIENTS, () -> cluster.node(3, "start"));
            load.phase("killed node back", Duration.ofSeconds(5));

            cluster.node(2, "pause");
            load.phase("one node paused", PAUSED_FOR);
            cluster.node(2, "resume");
            load.phase("paused node back", Duration.ofSeconds(5));

            // SIGTERM drains a node for 8-14 s: the quorum goes while these run, not after. Both
            // drain at once, as in a rollout that takes two nodes down together. The requests of
            // the phases before have their answers first: the stop is not theirs to answer for.
            load.phaseOnceAnswered("stopping two nodes");
            CompletableFuture<Void> third = CompletableFuture.runAsync(() -> cluster.node(3, "stop"));
            cluster.node(2, "stop");
            third.join();
            load.phase("quorum lost", QUORUM_LOST_FOR);
            load.whileOnly(BOOTING_CLIENTS, () -> cluster.node(2, "start"));
            long back = System.nanoTime();
            load.phase("quorum back", Duration.ZERO);
            Duration recovered = load.fullServiceSince(back, Duration.ofSeconds(60));
            System.out.printf(
                    "cluster faults: full service %d ms after a second node answered CQL again%n",
                    recovered.toMillis());
            assertThat(recovered)
                    .as("time to full service after the quorum returned")
                    .isLessThanOrEqualTo(Duration.ofSeconds(30));
            // Node 3 comes back without load, for the link faults: a node's return under load after
            // missing writes was the "killed node back" phase.
        } finally {
            load.stop();
        }
        load.report();
        List<String> problems = new ArrayList<>(load.audit());
        if (!load.answered503("stopping two nodes", "quorum lost")) {
            problems.add("no 503 while the quorum was lost: the fault did not happen");
        }
        // While one node is down or paused, two replicas still hold every row and form a quorum, so
        // no request may fail on its first attempt. A stuck coordinator is bypassed by a speculative
        // execution (after 100 ms; after 500 ms for the conditional writes of Cql.conditional), a
        // stuck replica by the table's speculative_retry (cql/047), and a coordinator that waited on
        // a replica until its own timeout (a killed node not yet marked down: 20 s here) by one retry
        // on the next coordinator (NextCoordinatorRetry), which the driver's 6 s request timeout
        // leaves time for. The service logs each statement the driver gave up on (Cql).
        problems.addAll(service.undecodedAnswers());
        problems.addAll(load.firstAttemptFailures(
                List.of("one node killed", "killed node back", "one node paused", "paused node back"), 0, 0));
        assertThat(problems)
                .as("what the clients were told against what is stored")
                .isEmpty();
    }

    @Test
    @Order(3)
    void should_keep_every_acknowledged_write_through_partitions_and_a_slow_link() throws Exception {
        assumeTrue(ROOT, "network namespaces need root");
        cluster.node(3, "start");
        AuditedLoad load = new AuditedLoad("network faults", CLIENTS, client);
        load.explainFailuresWith(service::warningsBetween);
        load.setUp();
        load.start();
        List<String> faults = new ArrayList<>();
        try {
            load.phase("steady", Duration.ofSeconds(5));
            for (String fault : LINK_FAULTS) {
                String phase = switch (fault) {
                    case "isolate" -> "node 3 cut off from the other nodes";
                    case "cut-service" -> "the service cut off from node 3";
                    case "slow" -> "node 3's links 200 ms slower, 5 % loss";
                    default -> throw new IllegalArgumentException("network.faults: " + fault);
                };
                if (fault.equals("slow")) {
                    cluster.net("3", "slow", "200", "5");
                } else {
                    cluster.net("3", fault);
                }
                faults.add(phase);
                load.phase(phase, LINK_FAULT_FOR);
                cluster.net("3", "heal");
                load.phase("healed after: " + phase, Duration.ofSeconds(10));
            }
        } finally {
            load.stop();
        }
        load.report();
        List<String> problems = new ArrayList<>(load.audit());
        problems.addAll(service.undecodedAnswers());
        problems.addAll(load.firstAttemptFailures(faults, 0.005, 0.01));
        assertThat(problems)
                .as("what the clients were told against what is stored")
                .isEmpty();
    }
}
