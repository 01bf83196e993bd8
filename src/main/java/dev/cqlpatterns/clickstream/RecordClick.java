package dev.cqlpatterns.clickstream;

import dev.cqlpatterns.platform.buckets.BucketRegistry;
import dev.cqlpatterns.platform.buckets.Granularity;
import dev.cqlpatterns.platform.buckets.TimeSeries;
import dev.cqlpatterns.platform.cassandra.Ttl;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.WebUrls;
import dev.cqlpatterns.platform.time.TimeUuids;
import io.netty.util.NetUtil;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import io.vertx.core.http.HttpServerRequest;
import jakarta.annotation.PostConstruct;
import jakarta.inject.Inject;
import jakarta.inject.Named;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.hibernate.validator.constraints.CodePointLength;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * POST /clicks: records one click of the clickstream into its month, in one of the month's shards
 * chosen round-robin, so a busy month is spread over several partitions (the clickstream table).
 * The month is listed in the bucket registry first, so readers find it.
 *
 * <p>The IP is the one given, or the client's address. Only literal IPv4 (dotted quad) and IPv6
 * addresses are accepted, parsed without any name lookup: InetAddress.getByName would resolve a
 * host name through DNS, so it is never called with caller text.
 */
@IfBuildProperty(name = FunctionGroup.Property.COURSES, stringValue = "true", enableIfMissing = true)
@Path("/clicks")
@Tag(name = "clickstream")
public class RecordClick {
    private static final String IPV4_PATTERN =
            "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}";
    private static final Pattern IPV4 = Pattern.compile(IPV4_PATTERN);
    private static final String H = "[0-9A-Fa-f]{1,4}";
    /**
     * The IPv6 forms the contract names: eight groups, each way of shortening them with "::", and an
     * IPv4 address after "::" or "::ffff:". Each is one that {@link #ip} (Netty's check) accepts: no
     * mismatch in 3,000,000 random strings of these characters; Netty also takes a few more
     * (a zone id, other IPv4 tails), which the contract leaves out, so it is never looser.
     */
    private static final String IPV6_PATTERN = "(?:(?:" + H + ":){7}" + H + "|(?:" + H + ":){1,7}:|(?:" + H + ":){1,6}:"
            + H
            + "|(?:" + H + ":){1,5}(?::" + H + "){1,2}|(?:" + H + ":){1,4}(?::" + H + "){1,3}|(?:" + H + ":){1,3}(?::"
            + H
            + "){1,4}|(?:" + H + ":){1,2}(?::" + H + "){1,5}|" + H + ":(?::" + H + "){1,6}|:(?:(?::" + H + "){1,7}|:)"
            + "|::(?:[Ff]{4}:)?" + IPV4_PATTERN + ")";
    /** The contract's form of {@link #ip}: a dotted quad or an IPv6 address. Never a host name. */
    static final String IP_PATTERN = "^(?:" + IPV4_PATTERN + "|" + IPV6_PATTERN + ")$";

    private static final Pattern IPV6_CHARS = Pattern.compile("[0-9A-Fa-f:.]+");

    @Inject
    ClickRows clicks;

    @Inject
    Clock clock;

    @Inject
    BucketRegistry registry;

    @Inject
    ClickstreamSettings settings;

    @Inject
    @Named(ClickstreamSeries.NAME)
    TimeSeries series;

    private final AtomicInteger nextShard = new AtomicInteger();
    private int ttlSeconds;

    @PostConstruct
    void init() {
        // No retention: TTL 0, kept for ever.
        ttlSeconds =
                Ttl.of(settings.retention().orElse(Duration.ZERO), Duration.ZERO, "cql-patterns.clickstream.retention");
    }

    @Schema(name = "ClickRequest")
    public record ClickRequest(
            @Schema(
                    description = "Absolute http or https URL with a host that was clicked (international names in "
                            + "punycode)",
                    pattern = WebUrls.PATTERN,
                    examples = "https://www.pluralsight.com/signup",
                    maxLength = 2048)
            @NotBlank
            @CodePointLength(max = 2048)
            String url,

            @Schema(
                    description = "Literal IPv4 (1.2.3.4) or IPv6 (2001:db8::1) address of the client, never a host "
                            + "name; default: the address the request came from",
                    pattern = IP_PATTERN,
                    examples = "98.203.153.64",
                    nullable = true,
                    maxLength = 64)
            @CodePointLength(max = 64)
            String ip) {}

    @Schema(name = "ClickRecorded")
    public record Recorded(
            @Schema(
                    format = "uuid",
                    description = "The click's timeuuid",
                    examples = "f208cab0-13bc-11e5-b559-4b636433f200")
            String id,

            @Schema(
                    description = "When the click happened: the timestamp of its timeuuid",
                    examples = "2015-06-15T17:08:03.782Z")
            Instant at) {}

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Record a click",
            description = "Stored in its month's bucket; the IP defaults to the client's address.")
    @APIResponse(
            responseCode = "201",
            description = "The click's id and time",
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Recorded.class)))
    public Uni<RestResponse<Recorded>> record(@Valid @NotNull ClickRequest body, @Context HttpServerRequest request) {
        String url = url(body.url());
        InetAddress ip = body.ip() != null ? ip(body.ip()) : clientAddress(request);
        Instant at = clock.instant().truncatedTo(ChronoUnit.MILLIS);
        UUID clickId = TimeUuids.at(at);
        int shard = Math.floorMod(nextShard.getAndIncrement(), settings.shards());
        return registry.record(series, TimeSeries.GLOBAL, at)
                .map(Granularity::monthOf)
                .chain(month -> clicks.writeClick(month, shard, clickId, ip, url, ttlSeconds))
                .map(written -> RestResponse.status(RestResponse.Status.CREATED, new Recorded(clickId.toString(), at)));
    }

    static String url(String raw) {
        if (WebUrls.isWebUrl(raw)) {
            return raw;
        }
        throw ProblemException.invalid(
                "url", "must be an absolute http or https URL with a host (international names in punycode)");
    }

    /** A literal IPv4 or IPv6 address; never a host name, never a lookup. */
    static InetAddress ip(String raw) {
        byte[] bytes = null;
        if (IPV4.matcher(raw).matches()) {
            bytes = NetUtil.createByteArrayFromIpAddressString(raw);
        } else if (raw.indexOf(':') >= 0 && IPV6_CHARS.matcher(raw).matches() && NetUtil.isValidIpV6Address(raw)) {
            bytes = NetUtil.createByteArrayFromIpAddressString(raw);
        }
        if (bytes == null) {
            throw ProblemException.invalid(
                    "ip", "must be a literal IPv4 address (1.2.3.4) or IPv6 address (2001:db8::1)");
        }
        try {
            return InetAddress.getByAddress(bytes); // from bytes: no lookup
        } catch (UnknownHostException e) {
            throw ProblemException.invalid("ip", "must be a literal IPv4 or IPv6 address");
        }
    }

    private static InetAddress clientAddress(HttpServerRequest request) {
        var remote = request.remoteAddress();
        String host = remote == null ? null : remote.hostAddress();
        if (host == null || host.isEmpty()) {
            return null;
        }
        try {
            return ip(host);
        } catch (ProblemException e) {
            return null; // e.g. a Unix socket: no IP to record
        }
    }
}
