package dev.cqlpatterns.pastebin;

import com.fasterxml.jackson.annotation.JsonIgnore;
import jakarta.validation.constraints.AssertTrue;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.buckets.BucketWalk;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.cassandra.Query;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /pastes: the latest public pastes, newest first, from latest_public_pastes (one partition
 * per day, see cql/030_pastebin.cql). The days that hold rows come from the bucket registry (one
 * partition), so days without public pastes are never read. The walk is platform.buckets.BucketWalk:
 * a page reads 1 + its day reads, at most cql-patterns.paging.max-buckets (31). Pastes whose expiry
 * has passed on the service's clock are skipped even if their row is still there (the TTL runs on
 * the server's clock and in whole seconds), so a day whose rows were partly expired is read again
 * after the last row read (another day read); a page not full when the reads run out ends short,
 * with a cursor where it stopped.
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@Path("/pastes")
@Tag(name = "pastebin")
public class LatestPublicPastes {
    private static final String SCOPE = "pastes:latest";
    private static final Query NEWEST = Cql.idempotent(
            "SELECT created_at, id, title, expires_at FROM latest_public_pastes WHERE day = ? LIMIT ?");
    private static final Query OLDER_THAN = Cql.idempotent("SELECT created_at, id, title, expires_at "
            + "FROM latest_public_pastes WHERE day = ? AND (created_at, id) < (?, ?) LIMIT ?");

    @Inject
    Cql cql;

    @Inject
    Clock clock;

    @Inject
    Cursors cursors;

    @Inject
    BucketWalk walk;

    @Inject
    PublicPasteList list;

    @Schema(name = "ListedPaste", description = "A public paste as the list shows it; GET /pastes/{id} has its body")
    public record Listed(
            @Schema(examples = "5d1f0c36-0b89-4c6b-9b0e-6f8a3f0d2f4e") UUID id,
            @Schema(nullable = true, examples = "nginx config") String title,
            @Schema(examples = "2026-01-31T23:59:59.123Z") Instant createdAt,
            @Schema(implementation = String.class, format = "date-time", nullable = true,
                    description = "Null when the paste never expires", examples = "2026-02-07T23:59:59.123Z")
            Instant expiresAt) {
    }

    /**
     * Where a page ended: the day bucket and the clustering key of the last row read; without a key
     * (both null), the top of that day.
     */
    @RegisterForReflection // read from cursors by Jackson, also in a native image
    public record Position(int day, Instant createdAt, UUID id) {
        @JsonIgnore
        @AssertTrue(message = "createdAt and id go together")
        public boolean isWhole() {
            return (createdAt == null) == (id == null);
        }

        BucketWalk.Mark<Key> mark() {
            return new BucketWalk.Mark<>(day, createdAt == null ? null : new Key(createdAt, id));
        }

        static Position of(BucketWalk.Mark<Key> mark) {
            Key key = mark.after();
            return new Position(mark.bucket(), key == null ? null : key.createdAt(), key == null ? null : key.id());
        }
    }

    /** A row's clustering key in latest_public_pastes. */
    record Key(Instant createdAt, UUID id) {
    }

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(summary = "The latest public pastes, newest first",
            description = "Private and expired pastes are never listed. Paged: pass 'next' back as 'cursor'.")
    public Uni<Page<Listed>> latest(
            @Parameter(description = "Page size, 1 to 500 (default 50)", example = "20") @QueryParam("limit") Integer limit,
            @Parameter(description = "The 'next' value of the previous page") @QueryParam("cursor") String cursor) {
        int size = cursors.limit(limit);
        Optional<Position> from = cursors.decode(SCOPE, cursor, Position.class);
        Instant now = clock.instant();
        TimeSeries series = list.series();
        int newest = series.granularity().key(now);
        return walk.page(series, TimeSeries.GLOBAL, newest, series.oldestKept(now), from.map(Position::mark).orElse(null),
                        size, walk.budget(), (Listed p) -> new Key(p.createdAt(), p.id()), (day, after, n) -> readDay(day, after, n, now))
                .map(page -> Page.of(page.items(),
                        page.next() == null ? null : cursors.encode(SCOPE, Position.of(page.next()))));
    }

    /**
     * Up to {@code n} rows of a day after {@code after}, less those expired on the service's clock;
     * the day is exhausted when fewer than {@code n} rows came back.
     */
    private Uni<BucketWalk.Chunk<Listed, Key>> readDay(int day, Key after, int n, Instant now) {
        return (after == null ? cql.read(NEWEST, day, n) : cql.read(OLDER_THAN, day, after.createdAt(), after.id(), n))
                .map(rs -> {
                    List<Row> rows = Cql.rows(rs);
                    List<Listed> live = new ArrayList<>();
                    for (Row row : rows) {
                        Instant expiresAt = row.getInstant("expires_at");
                        if (!PasteRow.expired(expiresAt, now)) {
                            live.add(new Listed(row.getUuid("id"), row.getString("title"), row.getInstant("created_at"),
                                    expiresAt));
                        }
                    }
                    Key last = rows.isEmpty() ? null
                            : new Key(rows.get(rows.size() - 1).getInstant("created_at"), rows.get(rows.size() - 1).getUuid("id"));
                    return new BucketWalk.Chunk<>(live, last, rows.size() < n);
                });
    }
}
