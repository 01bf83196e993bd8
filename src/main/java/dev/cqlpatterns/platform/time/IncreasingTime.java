package dev.cqlpatterns.platform.time;

import java.util.concurrent.atomic.AtomicLong;

/**
 * Readings of a clock made strictly increasing in this process, in whatever unit they come: while
 * the clock stands still or jitters back by less than {@code stepBack}, each reading is one more
 * than the last. A step back of more is taken as it is: the replica is then one whose clock is
 * behind, which everything whose order matters is built to survive (README, "Clock skew between
 * replicas"), rather than a process that keeps handing out times from before the step.
 */
public final class IncreasingTime {
    private final long stepBack;
    private final AtomicLong last;

    public IncreasingTime(long stepBack) {
        this.stepBack = stepBack;
        this.last = new AtomicLong(Long.MIN_VALUE + stepBack);
    }

    /** The time to use for a clock reading of {@code now}. */
    public long next(long now) {
        return last.updateAndGet(previous -> now > previous - stepBack ? Math.max(now, previous + 1) : now);
    }
}
