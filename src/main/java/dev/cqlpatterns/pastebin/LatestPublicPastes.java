package dev.cqlpatterns.pastebin;

import com.fasterxml.jackson.annotation.JsonIgnore;
import dev.cqlpatterns.pastebin.PublicPasteList.ListRow;
import dev.cqlpatterns.platform.buckets.BucketWalk;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.constraints.AssertTrue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Predicate;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /pastes: the latest public pastes, newest first, from latest_public_pastes_by_period
 * (latest_public_pastes_by_period), one partition per day. The days that hold
 * rows come from the bucket registry (one partition), so days without public pastes are never read.
 * The walk is platform.buckets.BucketWalk: a page reads 1 + its day reads, at most cql-patterns.paging.max-buckets (31). Pastes whose expiry
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
    /**
     * Newest first, as the table's clustering orders rows: created_at, then id as Cassandra compares a
     * uuid (version, then both halves unsigned; paste ids are random, version 4).
     */
    private static final Comparator<ListRow> NEWEST_FIRST = Comparator.comparing(ListRow::createdAt)
            .thenComparing(
                    ListRow::id,
                    Comparator.comparingInt(UUID::version)
                            .thenComparing(UUID::getMostSignificantBits, Long::compareUnsigned)
                            .thenComparing(UUID::getLeastSignificantBits, Long::compareUnsigned))
            .reversed();

    @Inject
    Clock clock;

    @Inject
    Cursors cursors;

    @Inject
    BucketWalk walk;

    @Inject
    PublicPasteList list;

    @Inject
    ListingPeriods listing;

    @Inject
    PastebinSettings settings;

    @Schema(name = "ListedPaste", description = "A public paste as the list shows it; GET /pastes/{id} has its body")
    public record Listed(
            @Schema(examples = "5d1f0c36-0b89-4c6b-9b0e-6f8a3f0d2f4e")
            UUID id,

            @Schema(nullable = true, maxLength = 200, pattern = Text.SINGLE_LINE, examples = "nginx config")
            String title,

            @Schema(examples = "2026-01-31T23:59:59.123Z") Instant createdAt,

            @Schema(
                    implementation = String.class,
                    format = "date-time",
                    nullable = true,
                    description = "Null when the paste never expires",
                    examples = "2026-02-07T23:59:59.123Z")
            Instant expiresAt) {}

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

    /** A row's place in the list: created_at, then id (each period's clustering, after listed_for). */
    record Key(Instant createdAt, UUID id) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "The latest public pastes, newest first",
            description = "Private and expired pastes are never listed. A public paste may leave the list before "
                    + "it expires: it is listed for the longest listing period it lives (by default 1 min, 10 min, 1 h, "
                    + "6 h, 1 d, 7 d or 30 d), and one living less than a minute may not be listed at all. "
                    + "Paged: pass 'next' back as 'cursor'.")
    public Uni<Page<Listed>> latest(@QueryParam("limit") Integer limit, @QueryParam("cursor") String cursor) {
        int size = cursors.limit(limit);
        Optional<Position> from = cursors.decode(SCOPE, cursor, Position.class);
        Instant now = clock.instant();
        TimeSeries series = list.series();
        int newest = series.granularity().key(now);
        return walk.page(
                        series,
                        TimeSeries.GLOBAL,
                        newest,
                        series.oldestKept(now),
                        from.map(Position::mark).orElse(null),
                        size,
                        walk.budget(),
                        (Listed p) -> new Key(p.createdAt(), p.id()),
                        (day, after, n) -> readPeriods(day, after, n, now))
                .map(page -> page.toPage(Function.identity(), next -> cursors.encode(SCOPE, Position.of(next))));
    }

    /**
     * Up to {@code n} rows of a day after {@code after} from latest_public_pastes_by_period: one read
     * per listing period whose window still reaches the day, each starting at its newest row and
     * stopping before its first expired one, merged newest first. The day is exhausted when every
     * read came back short and together they fit in {@code n}.
     */
    private Uni<BucketWalk.Chunk<Listed, Key>> readPeriods(int day, Key after, int n, Instant now) {
        Instant dayEnds = list.series().granularity().end(day);
        List<Integer> periods = listing.periods().stream()
                .filter(period -> dayEnds.isAfter(ListingPeriods.listedSince(period, now)))
                .toList();
        if (periods.isEmpty()) {
            return Uni.createFrom().item(new BucketWalk.Chunk<>(List.of(), null, true));
        }
        return list.generation(day)
                .chain(g -> Uni.join()
                        .all(periods.stream()
                                .map(period -> list.readPeriod(
                                        day, g, period, ListingPeriods.listedSince(period, now), after, n))
                                .toList())
                        .andFailFast())
                .map(results -> {
                    List<ListRow> rows = new ArrayList<>();
                    boolean allShort = true;
                    for (List<ListRow> result : results) {
                        rows.addAll(result);
                        allShort &= result.size() < n;
                    }
                    rows.sort(NEWEST_FIRST);
                    boolean exhausted = allShort && rows.size() <= n;
                    return chunk(
                            rows.size() > n ? rows.subList(0, n) : rows,
                            exhausted,
                            row -> row.listedFor() == listing.listedFor(row.createdAt(), row.expiresAt()),
                            now);
                });
    }

    /**
     * The rows read of a day, newest first, as a chunk of the walk: those {@code shown} and not
     * expired at {@code now}.
     */
    private static BucketWalk.Chunk<Listed, Key> chunk(
            List<ListRow> rows, boolean exhausted, Predicate<ListRow> shown, Instant now) {
        List<Listed> live = new ArrayList<>();
        for (ListRow row : rows) {
            if (!PasteRow.expired(row.expiresAt(), now) && shown.test(row)) {
                live.add(new Listed(row.id(), row.title(), row.createdAt(), row.expiresAt()));
            }
        }
        ListRow last = rows.isEmpty() ? null : rows.get(rows.size() - 1);
        return new BucketWalk.Chunk<>(live, last == null ? null : new Key(last.createdAt(), last.id()), exhausted);
    }
}
