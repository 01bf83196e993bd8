package dev.cqlpatterns.platform.time;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;

/**
 * Time buckets in UTC. Anything that grows with time is partitioned by one of these, so a
 * partition holds at most one bucket's worth of rows.
 */
public final class TimeBuckets {

    private TimeBuckets() {
    }

    public static YearMonth month(Instant at) {
        return YearMonth.from(at.atZone(ZoneOffset.UTC));
    }

    public static LocalDate day(Instant at) {
        return LocalDate.ofInstant(at, ZoneOffset.UTC);
    }

    /** A month as the int stored in a bucket column: 2015-06 is 201506. */
    public static int monthKey(YearMonth month) {
        return month.getYear() * 100 + month.getMonthValue();
    }

    /** A day as the int stored in a bucket column: 2015-06-01 is 20150601. */
    public static int dayKey(LocalDate day) {
        return day.getYear() * 10_000 + day.getMonthValue() * 100 + day.getDayOfMonth();
    }

    public static YearMonth monthOfKey(int key) {
        return YearMonth.of(key / 100, key % 100);
    }

    public static LocalDate dayOfKey(int key) {
        return LocalDate.of(key / 10_000, (key / 100) % 100, key % 100);
    }

    public static Instant startOf(YearMonth month) {
        return month.atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    public static Instant startOf(LocalDate day) {
        return day.atStartOfDay(ZoneOffset.UTC).toInstant();
    }

    /** Every month from {@code newest} back to {@code oldest}, both included, newest first. */
    public static List<YearMonth> monthsNewestFirst(YearMonth newest, YearMonth oldest) {
        List<YearMonth> months = new ArrayList<>();
        for (YearMonth m = newest; !m.isBefore(oldest); m = m.minusMonths(1)) {
            months.add(m);
        }
        return months;
    }

    /** Every day from {@code newest} back to {@code oldest}, both included, newest first. */
    public static List<LocalDate> daysNewestFirst(LocalDate newest, LocalDate oldest) {
        List<LocalDate> days = new ArrayList<>();
        for (LocalDate d = newest; !d.isBefore(oldest); d = d.minusDays(1)) {
            days.add(d);
        }
        return days;
    }
}
