package dev.cqlpatterns.ring;

import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.token.TokenRange;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /ring: the cluster's nodes and the token ranges each owns (the A/B/C/D diagram of seed 004,
 * cql/SEEDS.md, as data). Answered from the driver's token map, which it keeps from the cluster's own system
 * tables; no query runs for it.
 */
@IfBuildProperty(name = FunctionGroup.Property.RING, stringValue = "true", enableIfMissing = true)
@Path("/ring")
@Tag(name = "ring")
public class TokenRing {
    private static final BigDecimal RING_SIZE = new BigDecimal(BigInteger.ONE.shiftLeft(64));

    @Inject
    Cql cql;

    @Schema(name = "RingNode")
    public record RingNode(
            @Schema(pattern = RingText.ADDRESS, examples = "127.0.0.1:9042")
            String address,

            @Schema(
                    description = "Null while the driver does not know it",
                    pattern = RingText.NAME,
                    nullable = true,
                    examples = "datacenter1")
            String datacenter,

            @Schema(
                    description = "Null while the driver does not know it",
                    pattern = RingText.NAME,
                    nullable = true,
                    examples = "rack1")
            String rack,

            @Schema(
                    description = "The driver's view of the node",
                    enumeration = {"UNKNOWN", "UP", "DOWN", "FORCED_DOWN"},
                    examples = "UP")
            String state,

            @Schema(description = "How many token ranges this node is the primary owner of")
            int ranges) {
        public RingNode {
            address = RingText.address(address);
            datacenter = datacenter == null ? null : RingText.name(datacenter);
            rack = rack == null ? null : RingText.name(rack);
        }
    }

    @Schema(name = "TokenRangeOwnership")
    public record Range(
            @Schema(description = "Exclusive start token", pattern = RingText.TOKEN, examples = "-9223372036854775808")
            String start,

            @Schema(description = "Inclusive end token", pattern = RingText.TOKEN, examples = "-4611686018427387904")
            String end,

            @Schema(description = "True for the range that wraps from the largest token back to the smallest")
            boolean wraps,

            @Schema(description = "Share of the whole ring, 0..1 (Murmur3 partitioner)", examples = "0.25")
            Double fraction,

            @Schema(
                    description = "The node that owns the range (without replication)",
                    pattern = RingText.ADDRESS,
                    examples = "127.0.0.1:9042")
            String owner,

            @Schema(
                    description = "Nodes holding a replica of the range for the service's keyspace",
                    type = SchemaType.ARRAY,
                    implementation = RingText.Address.class)
            List<String> replicas) {
        public Range {
            start = RingText.token(start);
            end = RingText.token(end);
            owner = owner == null ? null : RingText.address(owner);
            replicas = replicas.stream().map(RingText::address).toList();
        }
    }

    @Schema(name = "Ring")
    public record Ring(
            @Schema(pattern = RingText.PARTITIONER, examples = "org.apache.cassandra.dht.Murmur3Partitioner")
            String partitioner,

            @Schema(pattern = RingText.IDENTIFIER, examples = "cql_patterns")
            String keyspace,

            List<RingNode> nodes,

            @Schema(description = "Every token range, ordered by start token; together they cover the whole ring")
            List<Range> ranges) {
        public Ring {
            partitioner = RingText.partitioner(partitioner);
            keyspace = RingText.identifier(keyspace);
        }
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The token ring: nodes and the token ranges each owns")
    public Uni<Ring> ring() {
        return cql.session().map(this::read);
    }

    private Ring read(QuarkusCqlSession session) {
        var metadata = session.getMetadata();
        TokenMap tokens = metadata.getTokenMap()
                .orElseThrow(() -> new ProblemException(
                        503,
                        "cassandra-unavailable",
                        "Service unavailable",
                        "The token map is not known yet; retry later",
                        null));
        Map<TokenRange, Node> owners = new HashMap<>();
        for (Node node : metadata.getNodes().values()) {
            tokens.getTokenRanges(node).forEach(range -> owners.put(range, node));
        }
        List<Range> ranges = tokens.getTokenRanges().stream()
                .sorted(Comparator.comparing(TokenRange::getStart))
                .map(range -> new Range(
                        tokens.format(range.getStart()),
                        tokens.format(range.getEnd()),
                        range.isWrappedAround(),
                        fraction(tokens, range),
                        owners.containsKey(range) ? address(owners.get(range)) : null,
                        tokens.getReplicas(cql.keyspace(), range).stream()
                                .map(TokenRing::address)
                                .sorted()
                                .toList()))
                .toList();
        List<RingNode> nodes = metadata.getNodes().values().stream()
                .map(node -> new RingNode(
                        address(node),
                        node.getDatacenter(),
                        node.getRack(),
                        node.getState().name(),
                        tokens.getTokenRanges(node).size()))
                .sorted(Comparator.comparing(RingNode::address))
                .toList();
        return new Ring(tokens.getPartitionerName(), cql.keyspace().asInternal(), nodes, ranges);
    }

    /** Share of the ring, for Murmur3 tokens (signed 64-bit); null for other partitioners. */
    private static Double fraction(TokenMap tokens, TokenRange range) {
        if (!tokens.getPartitionerName().endsWith("Murmur3Partitioner")) {
            return null;
        }
        BigInteger start = new BigInteger(tokens.format(range.getStart()));
        BigInteger end = new BigInteger(tokens.format(range.getEnd()));
        BigInteger size = end.subtract(start);
        if (size.signum() <= 0) {
            size = size.add(BigInteger.ONE.shiftLeft(64));
        }
        return new BigDecimal(size).divide(RING_SIZE, 6, RoundingMode.HALF_EVEN).doubleValue();
    }

    /** host:port of the node's CQL endpoint, as the cluster itself reports it. */
    static String address(Node node) {
        return node.getBroadcastRpcAddress()
                .map(a -> a.getAddress().getHostAddress() + ":" + a.getPort())
                .orElseGet(() -> node.getEndPoint().toString());
    }
}
