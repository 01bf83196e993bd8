package dev.cqlpatterns.clickstream;

import dev.cqlpatterns.clickstream.ClickRows.Found;
import dev.cqlpatterns.platform.buckets.BucketWalk;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.WebUrls;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.platform.paging.Page;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Instant;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * GET /clicks?from=YYYY-MM&to=YYYY-MM: the clickstream newest first across the months of a range.
 *
 * <p>The seed reads {@code WHERE year = 2015 AND month IN (6, 5)}. Here the bucket registry lists
 * which months of the range have clicks (one partition read), and only those are read, newest
 * month first, so a year boundary is no special case (202501 comes before 202412). A month is
 * several partitions (its shards): each shard is read in parallel with the LIMIT the page still
 * needs, and the rows are merged newest first in Cassandra's timeuuid order, so the merge agrees
 * with the {@code click_id < ?} the next page starts from. The months are walked by
 * platform.buckets.BucketWalk, at most cql-patterns.paging.max-buckets of them a page:
 * X-Partitions-Read is 1 + shards x months read. The cursor is the month and the last click id
 * returned, or (last null) the month where a page cut short by that bound resumes.
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@Path("/clicks")
@Tag(name = "clickstream")
public class Clickstream {
    private static final DateTimeFormatter MONTH = DateTimeFormatter.ofPattern("uuuu-MM");
    private static final String MONTH_PATTERN = "^[0-9]{4}-(0[1-9]|1[0-2])$";
    private static final Pattern MONTH_TEXT = Pattern.compile(MONTH_PATTERN);
    /**
     * Cassandra's timeuuid order: by timestamp, then by the remaining bytes compared as signed
     * bytes (TimeUUIDType). UUID.compareTo is neither.
     */
    static final Comparator<UUID> TIMEUUID_ORDER = Comparator.comparingLong(UUID::timestamp)
            .thenComparingLong(id -> id.getLeastSignificantBits() ^ 0x0080808080808080L);

    @Inject
    ClickRows clicks;

    @Inject
    Clock clock;

    @Inject
    Cursors cursors;

    @Inject
    BucketWalk walk;

    @Inject
    ClickstreamSettings settings;

    @Inject
    @Named(ClickstreamSeries.NAME)
    TimeSeries series;

    /** Where the previous page stopped: the month (yyyymm) and the last click id returned (null: the month's top). */
    @RegisterForReflection
    public record Position(int month, UUID last) {}

    @Schema(name = "Click")
    public record Click(
            @Schema(
                    format = "uuid",
                    description = "The click's timeuuid",
                    examples = "f208cab0-13bc-11e5-b559-4b636433f200")
            String id,

            @Schema(
                    description = "When the click happened: the timestamp of its timeuuid",
                    examples = "2015-06-15T17:08:03.782Z")
            Instant at,

            @Schema(pattern = WebUrls.PATTERN, maxLength = 2048, examples = "https://www.pluralsight.com/signup")
            String url,

            @Schema(
                    description = "IPv4 or IPv6 address (RFC 5952 text); null when unknown",
                    examples = "98.203.153.64",
                    pattern = RecordClick.IP_PATTERN,
                    maxLength = 64,
                    nullable = true)
            String ip) {}

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Clicks newest first across the months from..to",
            description =
                    "Reads only the months of the range that have clicks, each as all of its shards. The span is at "
                            + "most cql-patterns.clickstream.max-span-months (default 24) months, both ends included.")
    public Uni<Page<Click>> list(
            @Parameter(
                            description = "Oldest month included, YYYY-MM; default: 'to' minus the maximum span",
                            example = "2024-11",
                            schema = @Schema(type = SchemaType.STRING, pattern = MONTH_PATTERN, maxLength = 7))
                    @QueryParam("from")
                    String from,
            @Parameter(
                            description = "Newest month included, YYYY-MM; default: the current month (UTC)",
                            example = "2025-02",
                            schema = @Schema(type = SchemaType.STRING, pattern = MONTH_PATTERN, maxLength = 7))
                    @QueryParam("to")
                    String to,
            @QueryParam("limit") Integer limit,
            @QueryParam("cursor") String cursor) {
        int size = cursors.limit(limit);
        int maxSpan = settings.maxSpanMonths();
        YearMonth toMonth = month("to", to, YearMonth.from(clock.instant().atZone(ZoneOffset.UTC)));
        YearMonth fromMonth = month("from", from, toMonth.minusMonths(maxSpan - 1L));
        if (fromMonth.isAfter(toMonth)) {
            throw ProblemException.invalid("from", "must not be after 'to' (default: the current month)");
        }
        long span = ChronoUnit.MONTHS.between(fromMonth, toMonth) + 1;
        if (span > maxSpan) {
            throw ProblemException.invalid(
                    "from", "the range spans " + span + " months; at most " + maxSpan + " are allowed");
        }
        String scope = "clicks:" + (from == null ? "" : from) + ":" + (to == null ? "" : to);
        BucketWalk.Mark<UUID> after = cursors.decode(scope, cursor, Position.class)
                .map(p -> new BucketWalk.Mark<>(p.month(), p.last()))
                .orElse(null);
        return walk.page(
                        series,
                        TimeSeries.GLOBAL,
                        Granularity.monthKey(toMonth),
                        Granularity.monthKey(fromMonth),
                        after,
                        size,
                        walk.budget(),
                        Found::id,
                        (month, before, need) -> readMonth(month, before, need)
                                .map(found -> BucketWalk.Chunk.of(found, need, Found::id)))
                .map(page -> page.toPage(
                        Found::click, next -> cursors.encode(scope, new Position(next.bucket(), next.after()))));
    }

    /** The newest {@code need} clicks of a month (before a click id, if given): all shards, merged. */
    private Uni<List<Found>> readMonth(int monthKey, UUID before, int need) {
        YearMonth month = Granularity.monthOf(monthKey);
        List<Uni<List<Found>>> shards = new ArrayList<>(settings.shards());
        for (int shard = 0; shard < settings.shards(); shard++) {
            shards.add(clicks.inShard(month, shard, before, need));
        }
        return Uni.combine().all().unis(shards).with(results -> {
            List<Found> merged = new ArrayList<>();
            for (Object result : results) {
                @SuppressWarnings("unchecked")
                List<Found> found = (List<Found>) result;
                merged.addAll(found);
            }
            merged.sort(Comparator.comparing(Found::id, TIMEUUID_ORDER.reversed()));
            return merged.size() > need ? merged.subList(0, need) : merged;
        });
    }

    private static YearMonth month(String field, String raw, YearMonth fallback) {
        if (raw == null || raw.isEmpty()) {
            return fallback;
        }
        try {
            if (!MONTH_TEXT.matcher(raw).matches()) {
                throw new DateTimeParseException("not YYYY-MM", raw, 0);
            }
            return YearMonth.parse(raw, MONTH);
        } catch (DateTimeParseException e) {
            throw ProblemException.invalid(field, "must be a month as YYYY-MM, e.g. 2025-01");
        }
    }
}
