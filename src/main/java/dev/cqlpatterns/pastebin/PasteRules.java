package dev.cqlpatterns.pastebin;

import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.platform.errors.ProblemException;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.http.Text;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Optional;

/** The checks a paste's fields need beyond Bean Validation, shared by create and update. */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class PasteRules {
    /**
     * The contract's form of an expiresIn: an ISO-8601 duration as {@link Duration#parse} reads it
     * (days, hours, minutes, seconds with up to 9 decimals), without signs: only positive durations are
     * taken. Zero, under PT1S and over the maximum are refused too, which the contract only states.
     */
    static final String DURATION_SECONDS = "[0-9]+(?:[.,][0-9]{0,9})?[Ss]";

    static final String DURATION_TIME = "[Tt](?:[0-9]+[Hh](?:[0-9]+[Mm])?(?:" + DURATION_SECONDS + ")?|[0-9]+[Mm](?:"
            + DURATION_SECONDS + ")?|" + DURATION_SECONDS + ")";
    /** At least one digit that is not 0 (a lookahead, valid in Java and ECMA-262): P0D and PT0S are refused. */
    public static final String DURATION =
            "^(?=[^1-9]*[1-9])[Pp](?:[0-9]+[Dd](?:" + DURATION_TIME + ")?|" + DURATION_TIME + ")$";
    /** The longest expiresIn taken: room for any way of writing up to P365D, none for padding with zeros. */
    public static final int DURATION_MAX = 32;

    public static final String DURATION_DESCRIPTION =
            "positive ISO-8601 duration, at least PT1S and at most P365D " + "(cql-patterns.pastebin.max-expires-in)";
    /**
     * The body's limit in characters, as the contract can state it: cql-patterns.pastebin.max-body-size
     * (512 KiB) counts UTF-8 bytes (413 above it), and a character is at least one byte.
     */
    public static final int BODY_MAX_CHARACTERS = 512 * 1024;
    /**
     * The contract's form of a title: blank (taken as no title) or one line; at most 200 characters.
     */
    public static final String TITLE = "^(?:[" + Text.JAVA_WHITESPACE + "]*|" + Text.SINGLE_LINE_CHAR + "*)$";

    @Inject
    PastebinSettings settings;

    /** The body as given; 400 when empty, 413 when over the configured size. */
    public String body(String body) {
        if (body == null || body.isEmpty()) {
            throw ProblemException.invalid("body", "must not be empty");
        }
        if (!Text.isFreeText(body)) {
            throw ProblemException.invalid("body", Text.FREE_TEXT_MESSAGE);
        }
        long max = settings.maxBodySize().asLongValue();
        // A char is at most 3 UTF-8 bytes: skip the encoding when the body cannot be over.
        if ((long) body.length() * 3 > max && body.getBytes(StandardCharsets.UTF_8).length > max) {
            throw new ProblemException(
                    413,
                    "payload-too-large",
                    "Payload too large",
                    "body: over the limit of " + max + " bytes (UTF-8)",
                    List.of(new Problem.FieldError("body", "must be at most " + max + " bytes")));
        }
        return body;
    }

    /** The title to store: null when absent or blank; 400 when too long. */
    public String title(String title) {
        if (title == null || title.isBlank()) {
            return null;
        }
        if (Text.length(title) > settings.maxTitleLength()) {
            throw ProblemException.invalid("title", "must be at most " + settings.maxTitleLength() + " characters");
        }
        if (!Text.isSingleLine(title)) {
            throw ProblemException.invalid("title", Text.SINGLE_LINE_MESSAGE);
        }
        return title;
    }

    /**
     * How long a paste should live from now: the parsed expiresIn, or the configured default
     * when absent (empty = never). 400 when malformed, not positive, or over the maximum.
     */
    public Optional<Duration> expiresIn(String expiresIn) {
        if (expiresIn == null) {
            return settings.defaultExpiresIn();
        }
        if (Text.length(expiresIn) > DURATION_MAX) {
            throw ProblemException.invalid(
                    "expiresIn", "must be at most " + DURATION_MAX + " characters, such as PT10M, PT1H or P7D");
        }
        Duration duration;
        try {
            duration = Duration.parse(expiresIn);
        } catch (DateTimeParseException e) {
            throw ProblemException.invalid("expiresIn", "must be an ISO-8601 duration such as PT10M, PT1H or P7D");
        }
        if (duration.isNegative() || duration.isZero()) {
            throw ProblemException.invalid("expiresIn", "must be positive");
        }
        if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
            throw ProblemException.invalid("expiresIn", "must be at least PT1S (expiry is kept in whole seconds)");
        }
        if (duration.compareTo(settings.maxExpiresIn()) > 0) {
            throw ProblemException.invalid("expiresIn", "must be at most " + settings.maxExpiresIn());
        }
        return Optional.of(duration);
    }
}
