package dev.cqlpatterns.pastebin;

import dev.cqlpatterns.platform.functions.FunctionGroup;
import io.quarkus.arc.properties.IfBuildProperty;
import jakarta.annotation.PostConstruct;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.time.Period;
import java.util.List;
import java.util.TreeSet;

/**
 * The periods a public paste is listed for in latest_public_pastes_by_period
 * (cql-patterns.pastebin.listing-periods, the longest the list's retention): which one a version
 * of a paste falls under, and whether a change takes a list row of it away.
 */
@IfBuildProperty(name = FunctionGroup.Property.PASTEBIN, stringValue = "true", enableIfMissing = true)
@ApplicationScoped
public class ListingPeriods {
    /**
     * A period's read stops this much short of the listing's end, so a service clock this far behind
     * the nodes' still never reads a row they have expired.
     */
    static final Duration CLOCK_MARGIN = Duration.ofSeconds(2);

    @Inject
    PastebinSettings settings;

    /** The listing periods in seconds, shortest first; the last is the list's retention. */
    private List<Integer> periods;

    @PostConstruct
    void init() {
        Period retention = settings.listRetention();
        long longest = Duration.ofDays(retention.toTotalMonths() * 30 + retention.getDays())
                .toSeconds();
        TreeSet<Integer> seconds = new TreeSet<>();
        for (Duration period : settings.listingPeriods()) {
            if (period.toSeconds() > 0 && period.toSeconds() < longest) {
                seconds.add((int) period.toSeconds());
            }
        }
        seconds.add((int) longest);
        periods = List.copyOf(seconds);
    }

    /** The listing periods in seconds, shortest first. */
    List<Integer> periods() {
        return periods;
    }

    /**
     * Seconds latest_public_pastes_by_period lists this version for: the longest period its lifetime
     * covers; 0 when it lives less than the shortest (it is not listed there).
     */
    int listedFor(PasteRow paste) {
        return listedFor(paste.createdAt(), paste.expiresAt());
    }

    /**
     * Seconds a paste created at {@code createdAt} and expiring at {@code expiresAt} (null: never) is
     * listed for. A list row under another period was written before listing-periods changed: the
     * reader skips it, since a hide would not find it.
     */
    int listedFor(Instant createdAt, Instant expiresAt) {
        long life = expiresAt == null
                ? Long.MAX_VALUE
                : Duration.between(createdAt, expiresAt).toMillis();
        int listedFor = 0;
        for (int period : periods) {
            if (period * 1000L <= life) {
                listedFor = period;
            }
        }
        return listedFor;
    }

    /** The oldest created_at a period's rows may have to be read at {@code now}: newer than this. */
    static Instant listedSince(int period, Instant now) {
        return now.minusSeconds(period).plus(CLOCK_MARGIN);
    }

    /**
     * Whether going from {@code before} to {@code after} takes a list row of the paste away: it
     * narrows who sees the paste, or moves it to another listing period.
     */
    boolean unlists(PasteRow before, PasteRow after) {
        return narrows(before, after) || (!before.isPrivate() && listedFor(before) != listedFor(after));
    }

    /** Whether going from {@code before} to {@code after} can take the paste off the list or list it for less long. */
    private static boolean narrows(PasteRow before, PasteRow after) {
        if (before.isPrivate()) {
            return false; // not listed before: nothing to take off
        }
        if (after.isPrivate()) {
            return true;
        }
        Instant was = before.expiresAt();
        Instant will = after.expiresAt();
        return will != null && (was == null || will.isBefore(was));
    }
}
