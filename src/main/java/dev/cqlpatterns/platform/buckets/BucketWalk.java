package dev.cqlpatterns.platform.buckets;

import dev.cqlpatterns.platform.paging.Page;
import dev.cqlpatterns.platform.paging.PagingSettings;
import io.smallrye.mutiny.Uni;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * One page of a list that lives in time buckets (a partition per month or day), newest first:
 * the one walk every bucketed list uses (message history, latest pastes, latest joiners,
 * clickstream, course views).
 *
 * <p>The buckets come from the {@link BucketRegistry}, newest first, starting at the cursor's
 * bucket. The walk reads them in that order with the route's own per-bucket read, asking each
 * time for what the page still needs plus one (the extra item tells whether anything follows, so
 * a page that ends exactly at the last item says so with no cursor).
 *
 * <p><b>The rule for a short page.</b> A bucket that gave fewer items than asked is read again
 * from where that read stopped unless the read says the bucket is exhausted (pastes: rows whose
 * expiry has passed are skipped, so a full read can yield few items); otherwise the walk goes on
 * to the next older bucket. It stops when
 * <ul>
 * <li>the page is full: the cursor is the last item returned (its bucket and key);</li>
 * <li>the buckets are done: the page is the last one, no cursor, however short;</li>
 * <li>it has made {@code budget} bucket reads: the page ends short (possibly empty) with a
 * cursor where reading stopped: inside the bucket being read, after its last row read, or at
 * the top of the next listed bucket.</li>
 * </ul>
 * So a page costs one partition read for the registry plus at most {@code budget} bucket reads,
 * whatever the data looks like, and walking the cursors always reaches every item exactly once.
 */
@ApplicationScoped
public class BucketWalk {

    /**
     * A place in a series: in {@code bucket}, after the item keyed {@code after}; a null
     * {@code after} is the top (newest item) of the bucket.
     */
    public record Mark<K>(int bucket, K after) {}

    /**
     * What one read of one bucket gave: its items, newest first; the key of the last row it read
     * (null when it read none), from where the bucket is read again; and whether the bucket has
     * nothing after that row.
     */
    public record Chunk<T, K>(List<T> items, K last, boolean exhausted) {

        /** A {@code LIMIT asked} read whose every row is an item: exhausted when fewer came back. */
        public static <T, K> Chunk<T, K> of(List<T> items, int asked, Function<? super T, K> keyOf) {
            K last = items.isEmpty() ? null : keyOf.apply(items.get(items.size() - 1));
            return new Chunk<>(items, last, items.size() < asked);
        }
    }

    /** Reads at most {@code n} items of {@code bucket}, newest first, after {@code after} (null: from the top). */
    @FunctionalInterface
    public interface BucketRead<T, K> {
        Uni<Chunk<T, K>> read(int bucket, K after, int n);
    }

    /** A page: its items, and where the next page starts (null on the last page). */
    public record Walked<T, K>(List<T> items, Mark<K> next) {
        /** The page as a route answers it: each item mapped, and the next mark made a cursor. */
        public <R> Page<R> toPage(Function<? super T, R> item, Function<Mark<K>, String> cursor) {
            return Page.of(items.stream().<R>map(item).toList(), next == null ? null : cursor.apply(next));
        }
    }

    @Inject
    BucketRegistry registry;

    @Inject
    PagingSettings settings;

    /** Bucket reads a page makes at most, unless the route has a bound of its own. */
    public int budget() {
        return settings.maxBuckets();
    }

    /**
     * One page of {@code series} for {@code entity}: lists its buckets from {@code from}'s bucket
     * (or {@code newest} without a cursor) down to {@code oldest}, {@code budget + 1} at most (one
     * partition read; the extra one is where a page cut by the budget resumes), then walks them.
     */
    public <T, K> Uni<Walked<T, K>> page(
            TimeSeries series,
            String entity,
            int newest,
            int oldest,
            Mark<K> from,
            int size,
            int budget,
            Function<? super T, K> keyOf,
            BucketRead<T, K> read) {
        int top = from != null ? from.bucket() : newest;
        return registry.newestFirst(series, entity, top, oldest, budget + 1)
                .chain(buckets -> walk(buckets, from, size, budget, keyOf, read));
    }

    /**
     * The walk over buckets already listed, newest first (see the class comment for its rule).
     * {@code from} is the cursor's mark or null; {@code size} the page size; {@code keyOf} gives
     * an item's key, which the cursor of a full page holds.
     */
    public static <T, K> Uni<Walked<T, K>> walk(
            List<Integer> buckets,
            Mark<K> from,
            int size,
            int budget,
            Function<? super T, K> keyOf,
            BucketRead<T, K> read) {
        if (size < 1 || budget < 1) {
            throw new IllegalArgumentException("size and budget must be positive");
        }
        K start = from != null && !buckets.isEmpty() && buckets.get(0) == from.bucket() ? from.after() : null;
        return new Walk<>(buckets, size, budget, keyOf, read).step(0, start, 0);
    }

    private record Placed<T>(int bucket, T item) {}

    /** The state of one walk: what it has found so far. */
    private static final class Walk<T, K> {
        private final List<Integer> buckets;
        private final int size;
        private final int budget;
        private final Function<? super T, K> keyOf;
        private final BucketRead<T, K> read;
        private final List<Placed<T>> found = new ArrayList<>();

        Walk(List<Integer> buckets, int size, int budget, Function<? super T, K> keyOf, BucketRead<T, K> read) {
            this.buckets = buckets;
            this.size = size;
            this.budget = budget;
            this.keyOf = keyOf;
            this.read = read;
        }

        /** Reads bucket {@code index} from {@code after}, having made {@code reads} reads. */
        Uni<Walked<T, K>> step(int index, K after, int reads) {
            if (found.size() > size) {
                Placed<T> last = found.get(size - 1);
                return done(new Mark<>(last.bucket(), keyOf.apply(last.item())));
            }
            if (index >= buckets.size()) {
                return done(null);
            }
            int bucket = buckets.get(index);
            if (reads >= budget) {
                return done(new Mark<>(bucket, after));
            }
            int wanted = size + 1 - found.size();
            return read.read(bucket, after, wanted).chain(chunk -> {
                chunk.items().stream().limit(wanted).forEach(item -> found.add(new Placed<>(bucket, item)));
                if (chunk.exhausted()) {
                    return step(index + 1, null, reads + 1);
                }
                return step(
                        index,
                        Objects.requireNonNull(chunk.last(), "a bucket not exhausted names its last row"),
                        reads + 1);
            });
        }

        private Uni<Walked<T, K>> done(Mark<K> next) {
            List<T> items = found.stream().limit(size).map(Placed::item).toList();
            return Uni.createFrom().item(new Walked<>(items, next));
        }
    }
}
