package dev.cqlpatterns.platform.buckets;

import dev.cqlpatterns.platform.time.TimeBuckets;
import java.time.Instant;

/** How wide one bucket of a time series is; a bucket is keyed by an int (yyyymm or yyyymmdd). */
public enum Granularity {
    DAY {
        @Override
        public int key(Instant at) {
            return TimeBuckets.dayKey(TimeBuckets.day(at));
        }

        @Override
        public Instant start(int key) {
            return TimeBuckets.startOf(TimeBuckets.dayOfKey(key));
        }

        @Override
        public int next(int key) {
            return TimeBuckets.dayKey(TimeBuckets.dayOfKey(key).plusDays(1));
        }

        @Override
        public int previous(int key) {
            return TimeBuckets.dayKey(TimeBuckets.dayOfKey(key).minusDays(1));
        }
    },
    MONTH {
        @Override
        public int key(Instant at) {
            return TimeBuckets.monthKey(TimeBuckets.month(at));
        }

        @Override
        public Instant start(int key) {
            return TimeBuckets.startOf(TimeBuckets.monthOfKey(key));
        }

        @Override
        public int next(int key) {
            return TimeBuckets.monthKey(TimeBuckets.monthOfKey(key).plusMonths(1));
        }

        @Override
        public int previous(int key) {
            return TimeBuckets.monthKey(TimeBuckets.monthOfKey(key).minusMonths(1));
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
}
