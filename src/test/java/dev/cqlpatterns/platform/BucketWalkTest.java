package dev.cqlpatterns.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.platform.buckets.BucketWalk;
import dev.cqlpatterns.platform.buckets.BucketWalk.Chunk;
import dev.cqlpatterns.platform.buckets.BucketWalk.Mark;
import dev.cqlpatterns.platform.buckets.BucketWalk.Walked;
import io.smallrye.mutiny.Uni;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.Function;
import java.util.function.IntPredicate;
import org.junit.jupiter.api.Test;

/**
 * The bucket walk on its own, over buckets held in memory: items are ints, newest (largest)
 * first, and an item is its own key. No Cassandra, no Quarkus.
 */
class BucketWalkTest {
    private static final Duration WAIT = Duration.ofSeconds(5);

    /** Buckets newest first, each with its rows newest first; counts the reads made. */
    private static final class Series {
        final Map<Integer, List<Integer>> rows = new LinkedHashMap<>();
        final IntPredicate visible;
        int reads;

        Series(IntPredicate visible) {
            this.visible = visible;
        }

        static Series of(IntPredicate visible, Object... bucketsAndRows) {
            Series s = new Series(visible);
            for (int i = 0; i < bucketsAndRows.length; i += 2) {
                s.rows.put((Integer) bucketsAndRows[i], (List<Integer>) bucketsAndRows[i + 1]);
            }
            return s;
        }

        static Series of(Object... bucketsAndRows) {
            return of(item -> true, bucketsAndRows);
        }

        List<Integer> buckets() {
            return List.copyOf(rows.keySet());
        }

        /** The registry's listing from {@code top} down. */
        List<Integer> bucketsFrom(int top) {
            return rows.keySet().stream().filter(b -> b <= top).toList();
        }

        /** Up to n rows after {@code after}; only the visible ones are items (as expired pastes are not). */
        Uni<Chunk<Integer, Integer>> read(int bucket, Integer after, int n) {
            reads++;
            List<Integer> read = rows.get(bucket).stream()
                    .filter(r -> after == null || r < after)
                    .limit(n)
                    .toList();
            List<Integer> items = read.stream().filter(visible::test).toList();
            return Uni.createFrom()
                    .item(new Chunk<>(items, read.isEmpty() ? null : read.get(read.size() - 1), read.size() < n));
        }

        Walked<Integer, Integer> page(Mark<Integer> from, int size, int budget) {
            List<Integer> listed = from == null ? buckets() : bucketsFrom(from.bucket());
            return BucketWalk.walk(
                            listed.subList(0, Math.min(listed.size(), budget + 1)),
                            from,
                            size,
                            budget,
                            Function.identity(),
                            this::read)
                    .await()
                    .atMost(WAIT);
        }
    }

    @Test
    void should_answer_an_empty_last_page_when_there_are_no_buckets() {
        Series none = Series.of();
        Walked<Integer, Integer> page = none.page(null, 10, 5);
        assertThat(page.items()).isEmpty();
        assertThat(page.next()).isNull();
        assertThat(none.reads).isZero();
    }

    @Test
    void should_read_on_into_older_buckets_while_the_page_is_short() {
        Series sparse = Series.of(5, List.of(50), 4, List.of(), 2, List.of(21, 20), 1, List.of(10));
        Walked<Integer, Integer> page = sparse.page(null, 10, 31);
        assertThat(page.items()).containsExactly(50, 21, 20, 10);
        assertThat(page.next()).isNull();
        assertThat(sparse.reads).isEqualTo(4);
    }

    @Test
    void should_end_a_page_exactly_at_a_bucket_end() {
        Series s = Series.of(2, List.of(21, 20), 1, List.of(11, 10));
        // full at the end of bucket 2: the look-ahead finds 11, so the cursor is 20 in bucket 2
        Walked<Integer, Integer> first = s.page(null, 2, 31);
        assertThat(first.items()).containsExactly(21, 20);
        assertThat(first.next()).isEqualTo(new Mark<>(2, 20));
        // the next page starts in bucket 2 after 20: nothing there, then bucket 1; ends at the last item
        Walked<Integer, Integer> second = s.page(first.next(), 2, 31);
        assertThat(second.items()).containsExactly(11, 10);
        assertThat(second.next()).isNull();
        // a page as large as everything: no cursor, no empty page after it
        assertThat(Series.of(2, List.of(21, 20)).page(null, 2, 31).next()).isNull();
    }

    @Test
    void should_continue_inside_the_cursors_bucket() {
        Series s = Series.of(3, List.of(32, 31, 30), 1, List.of(10));
        Walked<Integer, Integer> page = s.page(new Mark<>(3, 31), 5, 31);
        assertThat(page.items()).containsExactly(30, 10);
        assertThat(page.next()).isNull();
        // a cursor at the top of a bucket (after null) reads it from its newest
        assertThat(s.page(new Mark<>(3, null), 2, 31).items()).containsExactly(32, 31);
        // a cursor whose bucket is no longer listed starts at the top of the next older one
        assertThat(s.page(new Mark<>(2, 25), 5, 31).items()).containsExactly(10);
    }

    @Test
    void should_end_short_with_a_cursor_to_the_next_bucket_when_the_budget_runs_out() {
        Series s = Series.of(5, List.of(50), 4, List.of(40), 3, List.of(30), 2, List.of(20), 1, List.of(10));
        Walked<Integer, Integer> first = s.page(null, 10, 2);
        assertThat(first.items()).containsExactly(50, 40);
        assertThat(first.next()).isEqualTo(new Mark<>(3, null));
        assertThat(s.reads).isEqualTo(2);
        Walked<Integer, Integer> second = s.page(first.next(), 10, 2);
        assertThat(second.items()).containsExactly(30, 20);
        Walked<Integer, Integer> third = s.page(second.next(), 10, 2);
        assertThat(third.items()).containsExactly(10);
        assertThat(third.next()).isNull();
    }

    @Test
    void should_read_a_bucket_again_after_rows_that_are_not_items_and_count_each_read() {
        // only even rows are items (the others stand for expired pastes)
        Series s = Series.of(item -> item % 2 == 0, 2, List.of(29, 28, 27, 26, 25, 24, 23, 22, 21, 20), 1, List.of(10));
        Walked<Integer, Integer> page = s.page(null, 3, 31);
        // asked 4: 29..26 gave two items; again after 26 for two: 25, 24 gave one; then 23 none; then 22,
        // the look-ahead: four reads of the same bucket
        assertThat(page.items()).containsExactly(28, 26, 24);
        assertThat(page.next()).isEqualTo(new Mark<>(2, 24));
        assertThat(s.reads).isEqualTo(4);
        // with one read left, the page ends inside the bucket, after the last row read
        Walked<Integer, Integer> cut = s.page(null, 3, 1);
        assertThat(cut.items()).containsExactly(28, 26);
        assertThat(cut.next()).isEqualTo(new Mark<>(2, 26));
    }

    @Test
    void should_reach_every_item_once_whatever_the_page_size_and_budget() {
        Random random = new Random(17);
        for (int round = 0; round < 200; round++) {
            Series s = new Series(item -> item % 3 != 0);
            List<Integer> expected = new ArrayList<>();
            int buckets = random.nextInt(8);
            for (int b = buckets; b >= 1; b--) {
                List<Integer> rows = new ArrayList<>();
                for (int r = random.nextInt(6); r >= 1; r--) {
                    rows.add(b * 100 + r);
                }
                rows.sort(Comparator.reverseOrder());
                s.rows.put(b, rows);
                rows.stream().filter(item -> item % 3 != 0).forEach(expected::add);
            }
            int size = 1 + random.nextInt(4);
            int budget = 1 + random.nextInt(3);
            List<Integer> seen = new ArrayList<>();
            Mark<Integer> next = null;
            int pages = 0;
            do {
                s.reads = 0;
                Walked<Integer, Integer> page = s.page(next, size, budget);
                assertThat(page.items().size()).isLessThanOrEqualTo(size);
                assertThat(s.reads).isLessThanOrEqualTo(budget);
                seen.addAll(page.items());
                next = page.next();
            } while (next != null && ++pages < 1000);
            assertThat(seen)
                    .as("round %d, size %d, budget %d", round, size, budget)
                    .isEqualTo(expected);
        }
    }
}
