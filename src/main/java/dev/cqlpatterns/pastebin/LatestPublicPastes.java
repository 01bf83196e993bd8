package dev.cqlpatterns.pastebin;

import jakarta.validation.constraints.NotNull;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.Granularity;
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
 * partition), so days without public pastes are never read; a page reads 1 + the days it visits.
 * Pastes whose expiry has passed on the service's clock are skipped even if their row is still
 * there (the TTL runs on the server's clock and in whole seconds).
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@Path("/pastes")
@Tag(name = "pastebin")
public class LatestPublicPastes {
    private static final String SCOPE = "pastes:latest";
    /** Upper bound on the days one page may visit; the list's retention keeps far fewer. */
    private static final int MAX_DAYS = 400;
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
    BucketRegistry registry;

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

    /** Where a page ended: the day bucket and the clustering key of its last paste. */
    @RegisterForReflection // read from cursors by Jackson, also in a native image
    public record Position(int day, @NotNull Instant createdAt, @NotNull UUID id) {
    }

    private record Found(int day, Listed paste) {
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
        int newest = from.map(Position::day).orElse(Granularity.DAY.key(now));
        return registry.newestFirst(series, TimeSeries.GLOBAL, newest, series.oldestKept(now), MAX_DAYS)
                .chain(days -> collect(days, 0, from, size + 1, now, new ArrayList<>()))
                .map(found -> {
                    if (found.size() <= size) {
                        return Page.of(found.stream().map(Found::paste).toList(), null);
                    }
                    List<Found> page = found.subList(0, size);
                    Found last = page.get(size - 1);
                    String next = cursors.encode(SCOPE,
                            new Position(last.day(), last.paste().createdAt(), last.paste().id()));
                    return Page.of(page.stream().map(Found::paste).toList(), next);
                });
    }

    /**
     * Walks the days newest first until {@code wanted} unexpired pastes are found, reading each
     * day from {@code after} on (only in the cursor's own day).
     */
    private Uni<List<Found>> collect(List<Integer> days, int index, Optional<Position> after, int wanted, Instant now,
            List<Found> found) {
        if (found.size() >= wanted || index >= days.size()) {
            return Uni.createFrom().item(found);
        }
        int day = days.get(index);
        Optional<Position> start = after.filter(p -> p.day() == day);
        int fetch = wanted - found.size();
        Uni<List<Row>> rows = start
                .map(p -> cql.read(OLDER_THAN, 1, day, p.createdAt(), p.id(), fetch))
                .orElseGet(() -> cql.read(NEWEST, 1, day, fetch))
                .map(Cql::rows);
        return rows.chain(page -> {
            for (Row row : page) {
                Instant expiresAt = row.getInstant("expires_at");
                if (!PasteRow.expired(expiresAt, now)) {
                    found.add(new Found(day, new Listed(row.getUuid("id"), row.getString("title"),
                            row.getInstant("created_at"), expiresAt)));
                }
            }
            if (page.size() == fetch && found.size() < wanted) {
                // The day has more rows but some were expired: read on in the same day.
                Row last = page.get(page.size() - 1);
                Optional<Position> resume = Optional.of(new Position(day, last.getInstant("created_at"), last.getUuid("id")));
                return collect(days, index, resume, wanted, now, found);
            }
            return collect(days, index + 1, Optional.empty(), wanted, now, found);
        });
    }
}
