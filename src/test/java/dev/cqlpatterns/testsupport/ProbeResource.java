package dev.cqlpatterns.testsupport;

import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.identity.Caller;
import dev.cqlpatterns.platform.paging.Cursors;
import io.quarkus.security.Authenticated;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.Map;

/**
 * Test-only routes that exercise the platform (errors, identity, cursors, accounting) before any
 * feature exists. Left out of the OpenAPI document by the test profile.
 */
@Path("/test-probe")
@Produces(MediaType.APPLICATION_JSON)
public class ProbeResource {
    private static final Query LEASE = Cql.idempotent("SELECT owner FROM leases WHERE name = ?");
    /** A partition of nothing but deleted rows (RefusedReadsTest writes them): a read walks them all. */
    private static final Query DEAD_ROWS = Cql.idempotent("SELECT c FROM probe_dead_rows WHERE k = ? LIMIT 10");

    @Inject
    Cql cql;

    @Inject
    Caller caller;

    @Inject
    Cursors cursors;

    public record Echo(
            @NotBlank @Size(max = 10) String text, @Min(1) Integer n) {}

    public record Position(String last) {}

    @POST
    @Path("/echo")
    @Consumes(MediaType.APPLICATION_JSON)
    public Uni<Echo> echo(@Valid Echo body) {
        return Uni.createFrom().item(body);
    }

    @GET
    @Path("/me")
    @Authenticated
    public Uni<Map<String, String>> me() {
        return Uni.createFrom().item(Map.of("username", caller.username()));
    }

    @GET
    @Path("/cursor")
    public Uni<Map<String, Object>> cursor(@QueryParam("cursor") String cursor, @QueryParam("limit") Integer limit) {
        int size = cursors.limit(limit);
        String last = cursors.decode("probe", cursor, Position.class)
                .map(Position::last)
                .orElse("start");
        return Uni.createFrom()
                .item(Map.of("last", last, "limit", size, "next", cursors.encode("probe", new Position(last + "+"))));
    }

    @GET
    @Path("/read")
    public Uni<Map<String, Object>> read() {
        return cql.read(LEASE, "nobody")
                .chain(first -> cql.read(LEASE, "nobody-either"))
                .map(rs -> Map.of("rows", Cql.rows(rs).size()));
    }

    @GET
    @Path("/dead-rows/{k}")
    public Uni<Map<String, Object>> deadRows(@PathParam("k") int k) {
        return cql.read(DEAD_ROWS, k).map(rs -> Map.of("rows", Cql.rows(rs).size()));
    }
}
