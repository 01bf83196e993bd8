package dev.cqlpatterns.platform.generations;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Where a moved generation's statement takes the generation, found from its own text. */
class GenerationalTest {

    @Test
    void should_find_the_generation_after_the_partition_key_of_a_where_clause() {
        assertThat(Generational.generationAt(
                        "DELETE FROM t USING TIMESTAMP ? WHERE k = ? AND c = ?",
                        "DELETE FROM t_generations USING TIMESTAMP ? WHERE k = ? AND generation = ? AND c = ?"))
                .isEqualTo(2);
        assertThat(Generational.generationAt(
                        "SELECT c FROM t WHERE k = ? LIMIT ?",
                        "SELECT c FROM t_generations WHERE k = ? AND generation = ? LIMIT ?"))
                .isEqualTo(1);
    }

    @Test
    void should_find_the_generation_among_the_columns_of_an_insert() {
        assertThat(Generational.generationAt(
                        "INSERT INTO t (k, c) VALUES (?, ?) USING TTL ? AND TIMESTAMP ?",
                        "INSERT INTO t_generations (k, generation, c) VALUES (?, ?, ?) USING TTL ? AND TIMESTAMP ?"))
                .isEqualTo(1);
    }

    @Test
    void should_refuse_statements_that_differ_by_more_than_the_generation() {
        assertThatThrownBy(() -> Generational.generationAt(
                        "SELECT c FROM t WHERE k = ?", "SELECT c FROM t_generations WHERE k = ? AND c = ?"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> Generational.generationAt(
                        "SELECT c FROM t WHERE k = ?",
                        "SELECT c FROM t_generations WHERE k = ? AND generation = ? AND c = ?"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
