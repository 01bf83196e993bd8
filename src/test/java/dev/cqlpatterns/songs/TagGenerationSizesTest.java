package dev.cqlpatterns.songs;

import static dev.cqlpatterns.songs.SongsTest.put;
import static dev.cqlpatterns.songs.SongsTest.taggedAndUntagged;
import static dev.cqlpatterns.songs.SongsTest.unique;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import dev.cqlpatterns.testsupport.SetGenerations;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A set moves after removals in proportion to its size (cql/051_generation_sizes.cql): a generation
 * of unknown size (generation 0) after the most, then live / 4 of them, within the profile's bounds.
 * Driven through the routes: songs tagged and untagged one after the other, each move waited for.
 */
@QuarkusTest
@TestProfile(TagGenerationSizesTest.Sizes.class)
class TagGenerationSizesTest {
    private static final int MOST = 60;
    private static final int FEWEST = 10;

    public static class Sizes implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Map.of(
                    "cql-patterns.generations.removals",
                    String.valueOf(MOST),
                    "cql-patterns.generations.removals-min",
                    String.valueOf(FEWEST),
                    "cql-patterns.generations.members-per-removal",
                    "4",
                    "cql-patterns.generations.drop-delay",
                    "PT1S");
        }
    }

    @Inject
    StoredRows stored;

    @Test
    void should_move_a_small_set_after_the_fewest_removals_once_its_size_is_known() {
        assertMovesAfter(8, FEWEST);
    }

    @Test
    void should_move_a_larger_set_after_a_quarter_of_its_size_in_removals() {
        assertMovesAfter(120, 30);
    }

    /**
     * A tag of {@code members} songs moves after the most removals while its size is unknown (generation 0), and
     * then after {@code removals}: not one before.
     */
    private void assertMovesAfter(int members, int removals) {
        String tag = unique("sized-");
        tagged(tag, members);

        churn(tag, MOST);
        assertThat(state(tag))
                .as("generation and size after %d removals in generation 0", MOST)
                .containsExactly(1, members);

        churn(tag, removals - 1);
        assertThat(state(tag).get(0))
                .as("generation after %d more (%d members)", removals - 1, members)
                .isEqualTo(1);
        churn(tag, 1);
        assertThat(state(tag)).as("generation and size after %d more", removals).containsExactly(2, members);
    }

    /** Tags {@code count} songs with {@code tag}, to stay. */
    private static void tagged(String tag, int count) {
        for (int i = 0; i < count; i++) {
            put(String.format("%s kept %03d", tag, i), "Album", "Song", List.of(tag))
                    .then()
                    .statusCode(201);
        }
    }

    /** Tags and untags {@code removals} songs one after the other, then waits for any move they started. */
    private void churn(String tag, int removals) {
        for (int i = 0; i < removals; i++) {
            taggedAndUntagged(unique(tag + " churned "), "Song", tag);
        }
        SetGenerations.settled(stored, "songs_by_tag", tag);
    }

    /** The tag's current generation and the size its last move recorded. */
    private List<Integer> state(String tag) {
        Row row = stored
                .execute(
                        "SELECT current, live FROM partition_generations WHERE set_name = 'songs_by_tag' AND set_key = ?",
                        tag)
                .stream()
                .findFirst()
                .orElseThrow();
        return List.of(row.getInt("current"), row.isNull("live") ? -1 : row.getInt("live"));
    }
}
