package dev.cqlpatterns.platform.buckets;

import java.time.Instant;
import java.time.LocalDate;
import java.time.YearMonth;
import java.time.ZoneOffset;

/**
 * How wide one bucket of a time series is. Buckets are UTC and keyed by an int that sorts like
 * time: a month is yyyymm (2015-06 is 201506), a day yyyymmdd (2015-06-01 is 20150601). Anything
 * that grows with time is partitioned by one of these, so a partition holds at most one bucket.
 */
public enum Granularity {
    DAY {
        @Override
        public int key(Instant at) {
            return dayKey(LocalDate.ofInstant(at, ZoneOffset.UTC));
        }

        @Override
        public Instant start(int key) {
            return dayOf(key).atStartOfDay(ZoneOffset.UTC).toInstant();
        }

        @Override
        public int next(int key) {
            return dayKey(dayOf(key).plusDays(1));
        }

        @Override
        public int previous(int key) {
            return dayKey(dayOf(key).minusDays(1));
        }
    },
    MONTH {
        @Override
        public int key(Instant at) {
            return monthKey(YearMonth.from(at.atZone(ZoneOffset.UTC)));
        }

        @Override
        public Instant start(int key) {
            return monthOf(key).atDay(1).atStartOfDay(ZoneOffset.UTC).toInstant();
        }

        @Override
        public int next(int key) {
            return monthKey(monthOf(key).plusMonths(1));
        }

        @Override
        public int previous(int key) {
            return monthKey(monthOf(key).minusMonths(1));
        }
    };

    /** The bucket an instant falls in. */
    public abstract int key(Instant at);

    /** The first instant of a bucket. */
    public abstract Instant start(int key);

    public abstract int next(int key);

    public abstract int previous(int key);

    /** The first instant after a bucket. */
    public Instant end(int key) {
        return start(next(key));
    }

    /** A month as its bucket key: 2015-06 is 201506. */
    public static int monthKey(YearMonth month) {
        return month.getYear() * 100 + month.getMonthValue();
    }

    /** The month of a MONTH bucket key (for tables keyed by year and month, as the seed's clickstream). */
    public static YearMonth monthOf(int key) {
        return YearMonth.of(key / 100, key % 100);
    }

    private static int dayKey(LocalDate day) {
        return day.getYear() * 10_000 + day.getMonthValue() * 100 + day.getDayOfMonth();
    }

    private static LocalDate dayOf(int key) {
        return LocalDate.of(key / 10_000, (key / 100) % 100, key % 100);
    }
}
