package dev.cqlpatterns.pastebin;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cqlpatterns.platform.cassandra.CompareAndSet;
import dev.cqlpatterns.platform.cassandra.CompareAndSet.Step;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.limits.ChargesBodyBytes;
import io.quarkus.arc.properties.IfBuildProperty;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicLong;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * PUT /pastes/{id}: changes title, body, visibility or expiry, for the holder of the secret.
 *
 * <p>Two clients may change a paste at once; each change is applied on top of the other, never
 * lost. The paste row is replaced by a compare-and-set on its version (a lightweight
 * transaction); the loser re-reads the paste through Paxos and applies its change again. The list
 * cannot take part in that transaction (a conditional batch is limited to one partition), so:
 * <ol>
 * <li>if the change narrows who sees the paste (made private, expiry brought forward) or moves it to
 * another listing period (a changed expiry), its list rows are deleted first, at the new version - 1;</li>
 * <li>the compare-and-set replaces the paste row, every cell with the TTL of the new expiry;</li>
 * <li>a version that may be listed is written to the list at the new version.</li>
 * </ol>
 * Versions grow strictly, and list writes carry them as their timestamp, so concurrent changes
 * leave the list row of the last version whatever order their writes arrive in.
 *
 * <p>The loop is {@link CompareAndSet} (at most cql-patterns.cassandra.cas-attempts, then 409); a
 * replace whose outcome is unknown is learnt by a serial read: the paste holds the version it proposed.
 *
 * <p>Partitions read: 2 (the paste, and the compare-and-set's condition), 2 more per retry.
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@Path("/pastes/{id}")
@Tag(name = "pastebin")
public class UpdatePaste {

    @Inject
    PasteRows pastes;

    @Inject
    PasteRules rules;

    @Inject
    PublicPasteList list;

    @Inject
    ListingPeriods periods;

    @Inject
    CompareAndSet cas;

    @Schema(
            name = "UpdatePasteRequest",
            minProperties = 1,
            description = "Only the fields given change; give at least one (null is the same as absent)")
    public record Request(
            @Schema(
                    nullable = true,
                    description = "New title, at most 200 characters, one line; a blank one removes the " + "title",
                    maxLength = 200,
                    pattern = PasteRules.TITLE,
                    examples = "nginx config, fixed")
            String title,

            @Schema(
                    nullable = true,
                    description = "New text; not empty, at most max-body-size bytes of UTF-8 (512 KiB; "
                            + "413 above it); no control character but tab, line feed and carriage return",
                    minLength = 1,
                    maxLength = PasteRules.BODY_MAX_CHARACTERS,
                    pattern = Text.FREE_TEXT,
                    examples = "server { listen 8080; }")
            String body,

            @JsonProperty("private")
            @Schema(
                    nullable = true,
                    description = "New visibility: true takes the paste off " + "the list at once, false lists it")
            Boolean isPrivate,

            @Schema(
                    nullable = true,
                    description =
                            "New expiry, counted from now, such as PT10M or P7D: a " + PasteRules.DURATION_DESCRIPTION,
                    pattern = PasteRules.DURATION,
                    maxLength = PasteRules.DURATION_MAX,
                    examples = "PT1H")
            String expiresIn) {}

    /** What the request changes; null fields keep their value. */
    private record Change(boolean setTitle, String title, String body, Boolean isPrivate, Optional<Duration> lifetime) {

        PasteRow applyTo(PasteRow before, Instant now, long version) {
            Instant modifiedAt = now.isAfter(before.modifiedAt()) ? now : before.modifiedAt();
            return new PasteRow(
                    before.id(),
                    setTitle ? title : before.title(),
                    body != null ? body : before.body(),
                    isPrivate != null ? isPrivate : before.isPrivate(),
                    before.secretHash(),
                    before.createdAt(),
                    modifiedAt,
                    lifetime.map(d -> PasteRow.millis(now.plus(d))).orElse(before.expiresAt()),
                    version);
        }
    }

    @PUT
    @ChargesBodyBytes
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Change a paste",
            description = "Needs the secret given when the paste was created. "
                    + "A new expiresIn counts from now and applies to every row of the paste.")
    @APIResponse(
            responseCode = "200",
            description = "The paste as changed",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Paste.class)))
    @APIResponse(responseCode = "403", description = "X-Paste-Secret missing or wrong")
    @APIResponse(
            responseCode = "409",
            description = "Others changed the paste so often at this moment that this "
                    + "change could not be applied; retry")
    public Uni<Paste> update(
            @Parameter(ref = PasteParameters.ID) @PathParam("id") UUID id,
            @Parameter(ref = PasteParameters.SECRET) @HeaderParam(PasteSecrets.HEADER) String secret,
            @Valid Request request) {
        PasteSecrets.requireShape(secret);
        if (request == null) {
            throw ProblemException.badRequest("A JSON body with the fields to change is required");
        }
        if (request.title() == null
                && request.body() == null
                && request.isPrivate() == null
                && request.expiresIn() == null) {
            throw ProblemException.badRequest("Nothing to change: give title, body, private or expiresIn");
        }
        Change change = new Change(
                request.title() != null,
                rules.title(request.title()),
                request.body() == null ? null : rules.body(request.body()),
                request.isPrivate(),
                request.expiresIn() == null ? Optional.empty() : rules.expiresIn(request.expiresIn()));
        // Each attempt's version is above the one the previous attempt proposed.
        AtomicLong floor = new AtomicLong();
        return cas.<PasteRow.Seen, Paste>run(
                attempt -> pastes.seen(id, attempt.retry()),
                seen -> {
                    PasteRow before = seen.paste().requireSecret(secret);
                    PasteRow after = change.applyTo(before, seen.now(), before.nextVersion(floor.get()));
                    floor.set(after.version());
                    Uni<Void> narrow = periods.unlists(before, after)
                            ? list.hide(before, after.version() - 1)
                            : Uni.createFrom().voidItem();
                    return Step.write(
                            PasteRows.TABLE,
                            narrow.chain(() -> pastes.replace(before, after, seen.now())),
                            () -> pastes.holds(after, seen.now()),
                            () -> list.show(after, seen.now()).replaceWith(after.view()));
                },
                () -> ProblemException.conflict("The paste is being changed by others at this moment; retry"));
    }
}
