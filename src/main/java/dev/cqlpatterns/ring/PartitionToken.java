package dev.cqlpatterns.ring;

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
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.Pattern;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
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
 * GET /ring/{table}/token?key=column=value...: where a partition lives. The token is computed by the
 * driver from the partition key's serialized bytes with the cluster's partitioner, exactly as
 * Cassandra places the partition; the replicas come from the token map for the service's
 * keyspace. No query runs.
 */
@IfBuildProperty(name = FunctionGroup.Property.RING, stringValue = "true", enableIfMissing = true)
@Path("/ring/{table}/token")
@Tag(name = "ring")
public class PartitionToken {
    private static final Set<DataType> QUOTED_LITERALS = Set.of(
            DataTypes.TEXT,
            DataTypes.ASCII,
            DataTypes.DATE,
            DataTypes.TIME,
            DataTypes.TIMESTAMP,
            DataTypes.INET,
            DataTypes.DURATION);

    @Inject
    Cql cql;

    @Schema(name = "PartitionPlacement")
    public record Placement(
            @Schema(pattern = RingText.IDENTIFIER, examples = "songs")
            String table,

            @Schema(
                    description = "The partition key columns and the values given for them",
                    type = SchemaType.OBJECT,
                    additionalProperties = RingText.KeyValue.class)
            Map<String, String> partitionKey,

            @Schema(description = "The partition's token", pattern = RingText.TOKEN, examples = "-4069959284402364209")
            String token,

            @Schema(
                    description = "Nodes holding a replica of this partition",
                    type = SchemaType.ARRAY,
                    implementation = RingText.Address.class)
            List<String> replicas) {
        public Placement {
            token = RingText.token(token);
            replicas = replicas.stream().map(RingText::address).toList();
        }
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "The token of a partition key and its replica nodes",
            description = "Give every partition key column of the table as one key=column=value parameter, e.g. "
                    + "/ring/songs/token?key=artist=Miles%20Davis&key=album=Kind%20of%20Blue&key=song=So%20What")
    public Uni<Placement> token(
            @Parameter(description = "A table of the service's keyspace", example = "songs")
                    @PathParam("table")
                    @Pattern(regexp = RingText.IDENTIFIER, message = RingText.IDENTIFIER_MESSAGE)
                    String table,
            // Which columns make the key depends on the table, so each is named in its value: an array of
            // column=value strings (style form, explode true), a shape validating proxies and generated
            // clients handle, where an object of one query parameter per column is not.
            @Parameter(
                            name = "key",
                            in = ParameterIn.QUERY,
                            required = true,
                            style = ParameterStyle.FORM,
                            explode = Explode.TRUE,
                            description =
                                    "One column=value for each partition key column of the table, "
                                            + "the value in CQL literal form without quotes; a missing, repeated or other column is a 400",
                            schema =
                                    @Schema(
                                            type = SchemaType.ARRAY,
                                            minItems = 1,
                                            maxItems = RingText.KEY_PARTS_MAX,
                                            implementation = RingText.KeyPart.class),
                            example = "[\"artist=Miles Davis\", \"album=Kind of Blue\", \"song=So What\"]")
                    @QueryParam("key")
                    List<String> key,
            @Context UriInfo uri) {
        Map<String, String> given = givenKey(key, uri);
        return cql.session().map(session -> place(session, table, given));
    }

    /** The key's parts as column -> value, in the order given; 400 for anything but key=column=value. */
    private static Map<String, String> givenKey(List<String> parts, UriInfo uri) {
        for (String parameter : uri.getQueryParameters().keySet()) {
            if (!parameter.equals("key")) {
                throw ProblemException.invalid(
                        parameter, "not a parameter of this route: give the partition key as key=column=value");
            }
        }
        if (parts == null || parts.isEmpty()) {
            throw ProblemException.invalid("key", "missing: give each partition key column as key=column=value");
        }
        if (parts.size() > RingText.KEY_PARTS_MAX) {
            throw ProblemException.invalid("key", "at most " + RingText.KEY_PARTS_MAX + " columns");
        }
        Map<String, String> given = new LinkedHashMap<>();
        for (String part : parts) {
            if (!RingText.isKeyPart(part)) {
                throw ProblemException.invalid("key", RingText.KEY_PART_MESSAGE);
            }
            int at = part.indexOf('=');
            if (given.putIfAbsent(part.substring(0, at), part.substring(at + 1)) != null) {
                throw ProblemException.invalid("key", part.substring(0, at) + " is given twice");
            }
        }
        return given;
    }

    private Placement place(QuarkusCqlSession session, String tableName, Map<String, String> given) {
        var metadata = session.getMetadata();
        TableMetadata table = metadata.getKeyspace(cql.keyspace())
                .flatMap(ks -> ks.getTable(CqlIdentifier.fromInternal(tableName)))
                .orElseThrow(() -> ProblemException.notFound("No table " + tableName + " in keyspace "
                        + cql.keyspace().asInternal()));
        TokenMap tokens = metadata.getTokenMap()
                .orElseThrow(() -> new ProblemException(
                        503,
                        "cassandra-unavailable",
                        "Service unavailable",
                        "The token map is not known yet; retry later",
                        null));
        var codecs = session.getContext().getCodecRegistry();
        var protocol = session.getContext().getProtocolVersion();
        Map<String, String> key = new LinkedHashMap<>();
        List<ByteBuffer> parts = new ArrayList<>();
        List<String> keyColumns = table.getPartitionKey().stream()
                .map(c -> c.getName().asInternal())
                .toList();
        for (String column : given.keySet()) {
            if (!keyColumns.contains(column)) {
                // Dropping it would place another partition than the caller meant (a clustering column given
                // as if it were part of the key, say).
                throw ProblemException.invalid(
                        "key",
                        column + " is not a partition key column: " + tableName + "'s partition key is " + keyColumns);
            }
        }
        for (ColumnMetadata column : table.getPartitionKey()) {
            String name = column.getName().asInternal();
            String raw = given.get(name);
            if (raw == null) {
                throw ProblemException.invalid(
                        "key", name + " is missing: " + tableName + "'s partition key is " + keyColumns);
            }
            TypeCodec<Object> codec = codecs.codecFor(column.getType());
            Object value;
            try {
                value = codec.parse(
                        QUOTED_LITERALS.contains(column.getType()) ? "'" + raw.replace("'", "''") + "'" : raw);
            } catch (RuntimeException e) {
                value = null;
            }
            if (value == null) {
                throw ProblemException.invalid(
                        "key", name + " is not a valid " + column.getType().asCql(false, true));
            }
            key.put(name, raw);
            parts.add(codec.encode(value, protocol));
        }
        Token token = tokens.newToken(parts.toArray(new ByteBuffer[0]));
        List<String> replicas = tokens.getReplicas(cql.keyspace(), token).stream()
                .map(TokenRing::address)
                .sorted()
                .toList();
        return new Placement(tableName, key, tokens.format(token), replicas);
    }
}
