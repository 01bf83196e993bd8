package dev.cqlpatterns.ring;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the cluster reports is answered only within the contract's rules (RingText). */
class RingAnswersTest {

    @Test
    void should_answer_what_a_cluster_reports() {
        assertThatCode(() -> new TokenRing.RingNode("[0:0:0:0:0:0:0:1%lo]:9042", "dc east 1", "rack-ä", "UP", 16))
                .doesNotThrowAnyException();
        assertThatCode(() -> new TokenRing.Range(
                        "-9223372036854775808", "0x7f", true, 0.5, "10.0.0.1:9042", List.of("10.0.0.2:9042")))
                .doesNotThrowAnyException();
        assertThatCode(() -> new TokenRing.Ring(
                        "org.apache.cassandra.dht.Murmur3Partitioner", "cql_patterns", List.of(), List.of()))
                .doesNotThrowAnyException();
    }

    @Test
    void should_refuse_to_answer_a_reported_string_outside_the_contract() {
        assertThatThrownBy(() -> new TokenRing.RingNode("10.0.0.1 9042", "dc1", "rack1", "UP", 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("node address");
        assertThatThrownBy(() -> new TokenRing.RingNode("10.0.0.1:9042", "d".repeat(129), "rack1", "UP", 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("data centre");
        assertThatThrownBy(() -> new TokenRing.RingNode("10.0.0.1:9042", "dc1", "rack\u001b", "UP", 1))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new TokenRing.Range("1".repeat(81), "2", false, null, null, List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("token");
        assertThatThrownBy(() -> new TokenRing.Range("1", "2", false, null, null, List.of("a".repeat(101))))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new TokenRing.Ring("org.example.Partitioner()", "cql_patterns", List.of(), List.of()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("partitioner");
        assertThatThrownBy(() -> new TokenRing.Ring("Murmur3Partitioner", "cql-patterns", List.of(), List.of()))
                .isInstanceOf(IllegalStateException.class);
        assertThatThrownBy(() -> new PartitionToken.Placement("songs", Map.of(), "12 3", List.of()))
                .isInstanceOf(IllegalStateException.class);
    }
}
