package dev.cqlpatterns.pastebin;

import com.fasterxml.jackson.annotation.JsonProperty;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.NewResource;
import dev.cqlpatterns.platform.http.Text;
import dev.cqlpatterns.platform.idempotency.IdempotencyKeys;
import dev.cqlpatterns.platform.limits.ChargesBodyBytes;
import dev.cqlpatterns.platform.openapi.ApiDefinition;
import io.quarkus.arc.properties.IfBuildProperty;
import io.quarkus.runtime.annotations.RegisterForReflection;
import io.smallrye.mutiny.Uni;
import jakarta.inject.Inject;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotNull;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.headers.Header;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * POST /pastes: stores a new paste under a random id and hands out its secret, once.
 *
 * <p>The paste row is written with a lightweight transaction (every write of pastes_by_id is
 * one, see pastes_by_id in docs/tables.md) and a TTL from its expiry; a public paste is then listed in
 * latest_public_pastes_by_period at the same version. Partitions read: 1, the condition of the write.
 *
 * <p>Safe to retry with an Idempotency-Key (platform.idempotency): the id, secret, times and version
 * are planned before anything is written and kept (the secret encrypted) with the key. A retry after
 * a 503 runs the same writes again, which are idempotent for the same plan: the conditional insert
 * finds its own row (not applied, and that is fine on a retry) and the list's writes write the same
 * cells at the same timestamp. Without a key a 503 may still have created the paste (listed or not):
 * the client cannot learn its id or secret.
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@Path("/pastes")
@Tag(name = "pastebin")
public class CreatePaste {

    @Inject
    PasteRows pastes;

    @Inject
    Clock clock;

    @Inject
    PasteRules rules;

    @Inject
    PublicPasteList list;

    @Schema(name = "CreatePasteRequest")
    public record Request(
            @Schema(
                    nullable = true,
                    description = "Optional title, at most 200 characters, one line; blank: none",
                    maxLength = 200,
                    pattern = PasteRules.TITLE,
                    examples = "nginx config")
            String title,

            @NotNull
            @Schema(
                    required = true,
                    description = "The text; not empty, at most max-body-size bytes of UTF-8 "
                            + "(512 KiB; 413 above it); no control character but tab, line feed and carriage return",
                    minLength = 1,
                    maxLength = PasteRules.BODY_MAX_CHARACTERS,
                    pattern = Text.FREE_TEXT,
                    examples = "server { listen 80; }")
            String body,
            // Checked by hand: Bean Validation would name the field isPrivate.
            @JsonProperty("private")
            @Schema(required = true, description = "Private: readable by whoever has the id, never listed")
            Boolean isPrivate,

            @Schema(
                    nullable = true,
                    description = "How long until the paste expires, e.g. PT10M, PT1H, P7D: a "
                            + PasteRules.DURATION_DESCRIPTION + "; absent: the configured default (none: never)",
                    pattern = PasteRules.DURATION,
                    maxLength = PasteRules.DURATION_MAX,
                    examples = "P7D")
            String expiresIn) {}

    @Schema(name = "CreatedPaste")
    public record Created(
            @Schema(examples = "5d1f0c36-0b89-4c6b-9b0e-6f8a3f0d2f4e")
            UUID id,

            @Schema(
                    description = "Needed (header X-Paste-Secret) to change or delete the paste. Shown only in this "
                            + "response: keep it",
                    pattern = PasteSecrets.PATTERN,
                    examples = "q9V3mJf0yZ2cXo6gN1rTt8bE4sW7aD5kL0pHuQxRiMc")
            String secret,

            @Schema(examples = "2026-01-31T23:59:59.123Z") Instant createdAt,

            @Schema(
                    implementation = String.class,
                    format = "date-time",
                    nullable = true,
                    description = "Null when the paste never expires",
                    examples = "2026-02-07T23:59:59.123Z")
            Instant expiresAt) {}

    /** What a create writes and answers, fixed before its first write (kept with its Idempotency-Key). */
    @RegisterForReflection
    public record Plan(UUID id, String secret, Instant createdAt, Instant expiresAt, long version) {}

    /** The request as the create understood it: its fingerprint under an Idempotency-Key. */
    @RegisterForReflection
    public record Fingerprint(String title, String body, boolean isPrivate, Duration expiresIn) {}

    public static final String OPERATION = "POST /pastes";

    @Inject
    IdempotencyKeys idempotency;

    @POST
    @ChargesBodyBytes
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @Operation(
            summary = "Create a paste",
            description = "Answers the paste's id and its secret; the secret is shown "
                    + "only here and is needed to change or delete the paste. Public pastes appear in GET /pastes.")
    @APIResponse(
            responseCode = "201",
            description = "Created (or, with a reused Idempotency-Key, created before)",
            headers = {
                @Header(
                        name = "Location",
                        description = "Path of the new paste, /pastes/{id}",
                        schema =
                                @Schema(
                                        type = SchemaType.STRING,
                                        format = "uri-reference",
                                        pattern = "^/pastes/" + NewResource.UUID_PATH,
                                        maxLength = 44))
            },
            content =
                    @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Created.class)))
    @APIResponse(responseCode = "409", description = "The Idempotency-Key was used before for a different paste")
    public Uni<RestResponse<Created>> create(
            @Parameter(ref = ApiDefinition.IDEMPOTENCY_KEY) @HeaderParam(IdempotencyKeys.HEADER) String key,
            @Valid Request request) {
        if (request == null) {
            throw ProblemException.badRequest("A JSON body with at least 'body' and 'private' is required");
        }
        if (request.isPrivate() == null) {
            throw ProblemException.invalid("private", "must be true or false");
        }
        String title = rules.title(request.title());
        String body = rules.body(request.body());
        Optional<Duration> lifetime = rules.expiresIn(request.expiresIn());
        Fingerprint fingerprint = new Fingerprint(title, body, request.isPrivate(), lifetime.orElse(null));
        return idempotency
                .run(
                        OPERATION,
                        "",
                        key,
                        fingerprint,
                        Plan.class,
                        () -> plan(lifetime),
                        (plan, retry) -> write(plan, fingerprint, retry))
                .map(done -> {
                    Plan plan = done.plan();
                    return done.respond(NewResource.<Created>at("/pastes/" + plan.id())
                            .entity(new Created(plan.id(), plan.secret(), plan.createdAt(), plan.expiresAt())));
                });
    }

    private Plan plan(Optional<Duration> lifetime) {
        Instant now = PasteRow.millis(clock.instant());
        Instant expiresAt = lifetime.map(d -> PasteRow.millis(now.plus(d))).orElse(null);
        return new Plan(UUID.randomUUID(), PasteSecrets.newSecret(), now, expiresAt, PasteRow.microsNow());
    }

    /** The writes of a plan; run again by a retry, they write the same cells. */
    private Uni<Void> write(Plan plan, Fingerprint request, boolean retry) {
        Instant now = PasteRow.millis(clock.instant());
        PasteRow paste = new PasteRow(
                plan.id(),
                request.title(),
                request.body(),
                request.isPrivate(),
                PasteSecrets.hash(plan.secret()),
                plan.createdAt(),
                plan.createdAt(),
                plan.expiresAt(),
                plan.version());
        // Not applied although settled by a serial read: another paste holds this id, which means 122
        // random bits collided, not expected in the lifetime of the universe.
        return pastes.create(paste, now)
                .invoke(applied -> {
                    if (!applied && !retry) {
                        throw new IllegalStateException("paste id taken");
                    }
                })
                .chain(ignored -> list.show(paste, now));
    }
}
