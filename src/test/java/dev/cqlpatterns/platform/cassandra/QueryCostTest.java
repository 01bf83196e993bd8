package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What a statement reads, by its text, unless declared: the cost StatementCostTest checks per route. */
class QueryCostTest {

    @Test
    void should_count_selects_and_conditional_writes_as_one_partition_and_plain_writes_as_none() {
        assertThat(Query.readsOf("SELECT a FROM ks.t WHERE k = ? LIMIT ?")).isEqualTo(1);
        assertThat(Query.readsOf("INSERT INTO t (k, a) VALUES (?, ?) IF NOT EXISTS USING TTL ?"))
                .isEqualTo(1);
        assertThat(Query.readsOf("UPDATE t SET a = ? WHERE k = ?\nIF version = ?"))
                .isEqualTo(1);
        assertThat(Query.readsOf("delete from t where k = ? if owner = ?")).isEqualTo(1);
        assertThat(Query.readsOf("INSERT INTO t (k, diff) VALUES (?, ?) USING TIMESTAMP ?"))
                .isZero();
        assertThat(Query.readsOf("DELETE FROM t USING TIMESTAMP ? WHERE k = ?")).isZero();
        assertThat(Query.readsOf("BEGIN LOGGED BATCH INSERT INTO t (k) VALUES (?); APPLY BATCH"))
                .isZero();
        assertThat(Query.readsOf("BEGIN LOGGED BATCH UPDATE t SET a = ? WHERE k = ? IF a = ?; APPLY BATCH"))
                .isEqualTo(1);
    }

    @Test
    void should_keep_a_declared_cost_and_the_rest_of_the_query() {
        Query index = Cql.idempotent("SELECT a FROM t WHERE sender = ?").reads(0);
        assertThat(index.reads).isZero();
        assertThat(index.idempotent).isTrue();
        assertThat(index.cql()).isEqualTo("SELECT a FROM t WHERE sender = ?");
        assertThat(Cql.query("UPDATE t SET a = ? WHERE k = ? IF a = ?").reads).isEqualTo(1);
    }
}
