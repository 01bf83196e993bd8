package dev.cqlpatterns.ring;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.metadata.token.Token;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.errors.ProblemException;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.UriInfo;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.Explode;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterIn;
import org.eclipse.microprofile.openapi.annotations.enums.ParameterStyle;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /ring/{table}/token?col=value...: where a partition lives. The token is computed by the
 * driver from the partition key's serialized bytes with the cluster's partitioner, exactly as
 * Cassandra places the partition; the replicas come from the token map for the service's
 * keyspace. No query runs.
 */
@IfBuildProperty(name = FunctionGroup.Property.RING, stringValue = "true", enableIfMissing = true)
@Path("/ring/{table}/token")
@Tag(name = "ring")
public class PartitionToken {
    private static final Set<DataType> QUOTED_LITERALS = Set.of(DataTypes.TEXT, DataTypes.ASCII, DataTypes.DATE,
            DataTypes.TIME, DataTypes.TIMESTAMP, DataTypes.INET, DataTypes.DURATION);

    @Inject
    Cql cql;

    @Schema(name = "PartitionPlacement")
    public record Placement(
            @Schema(pattern = RingText.IDENTIFIER, examples = "songs") String table,
            @Schema(description = "The partition key columns and the values given for them", type = SchemaType.OBJECT,
                    additionalProperties = RingText.KeyValue.class) Map<String, String> partitionKey,
            @Schema(description = "The partition's token", pattern = RingText.TOKEN, examples = "-4069959284402364209") String token,
            @Schema(description = "Nodes holding a replica of this partition", type = SchemaType.ARRAY,
                    implementation = RingText.Address.class) List<String> replicas) {
        public Placement {
            token = RingText.token(token);
            replicas = replicas.stream().map(RingText::address).toList();
        }
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The token of a partition key and its replica nodes",
            description = "Give every partition key column of the table as a query parameter, e.g. "
                    + "/ring/songs/token?artist=Miles%20Davis&album=Kind%20of%20Blue&song=So%20What")
    // The columns depend on the table, so the contract declares them as one free-form object whose
    // properties are the query parameters themselves (style form, explode true; OpenAPI 3.0 4.7.12.4).
    // A missing column is a 400 naming it, a value that is not of the column's CQL type too.
    @Parameter(name = "key", in = ParameterIn.QUERY, required = true, style = ParameterStyle.FORM, explode = Explode.TRUE,
            description = "The partition key: one query parameter per partition key column of the table, named as the "
                    + "column, its value in CQL literal form without quotes (e.g. artist=Miles%20Davis&album=...); "
                    + "any other parameter is a 400. "
                    + "Generated clients send it as an object: with openapi-fetch, "
                    + "querySerializer: { object: { style: 'form', explode: true } }",
            schema = @Schema(type = SchemaType.OBJECT, minProperties = 1, additionalProperties = RingText.KeyValue.class),
            example = "{\"artist\": \"Miles Davis\", \"album\": \"Kind of Blue\", \"song\": \"So What\"}")
    public Uni<Placement> token(
            @Parameter(description = "A table of the service's keyspace", example = "songs") @PathParam("table")
            @Pattern(regexp = RingText.IDENTIFIER, message = RingText.IDENTIFIER_MESSAGE) String table,
            @Context UriInfo uri) {
        return cql.session().map(session -> place(session, table, uri));
    }

    private Placement place(QuarkusCqlSession session, String tableName, UriInfo uri) {
        var metadata = session.getMetadata();
        TableMetadata table = metadata.getKeyspace(cql.keyspace())
                .flatMap(ks -> ks.getTable(CqlIdentifier.fromInternal(tableName)))
                .orElseThrow(() -> ProblemException.notFound("No table " + tableName + " in keyspace "
                        + cql.keyspace().asInternal()));
        TokenMap tokens = metadata.getTokenMap().orElseThrow(() -> new ProblemException(503, "cassandra-unavailable",
                "Service unavailable", "The token map is not known yet; retry later", null));
        var codecs = session.getContext().getCodecRegistry();
        var protocol = session.getContext().getProtocolVersion();
        Map<String, String> key = new LinkedHashMap<>();
        List<ByteBuffer> parts = new ArrayList<>();
        List<String> keyColumns = table.getPartitionKey().stream().map(c -> c.getName().asInternal()).toList();
        for (String given : uri.getQueryParameters().keySet()) {
            if (!keyColumns.contains(given)) {
                // Dropping it would place another partition than the caller meant (a clustering column given
                // as if it were part of the key, say).
                throw ProblemException.invalid(given, "not a partition key column: " + tableName + "'s partition key is "
                        + keyColumns);
            }
        }
        for (ColumnMetadata column : table.getPartitionKey()) {
            String name = column.getName().asInternal();
            String raw = uri.getQueryParameters().getFirst(name);
            if (raw == null) {
                throw ProblemException.invalid(name, "missing: " + tableName + "'s partition key is " + keyColumns);
            }
            if (!RingText.isKeyValue(raw)) {
                throw ProblemException.invalid(name, RingText.KEY_VALUE_MESSAGE);
            }
            TypeCodec<Object> codec = codecs.codecFor(column.getType());
            Object value;
            try {
                value = codec.parse(QUOTED_LITERALS.contains(column.getType()) ? "'" + raw.replace("'", "''") + "'" : raw);
            } catch (RuntimeException e) {
                value = null;
            }
            if (value == null) {
                throw ProblemException.invalid(name, "not a valid " + column.getType().asCql(false, true));
            }
            key.put(name, raw);
            parts.add(codec.encode(value, protocol));
        }
        Token token = tokens.newToken(parts.toArray(new ByteBuffer[0]));
        List<String> replicas = tokens.getReplicas(cql.keyspace(), token).stream().map(TokenRing::address).sorted().toList();
        return new Placement(tableName, key, tokens.format(token), replicas);
    }
}
