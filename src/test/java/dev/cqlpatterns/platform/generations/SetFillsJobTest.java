package dev.cqlpatterns.platform.generations;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3Token;
import com.datastax.oss.driver.internal.core.metadata.token.Murmur3TokenFactory;
import com.datastax.oss.driver.internal.core.util.RoutingKey;
import dev.cqlpatterns.platform.scheduling.DataMigration;
import dev.cqlpatterns.testsupport.SetGenerations;
import dev.cqlpatterns.testsupport.StoredRows;
import dev.cqlpatterns.testsupport.WithoutSets;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.enterprise.inject.Instance;
import jakarta.inject.Inject;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import org.junit.jupiter.api.Test;

/**
 * {@code job set-fills} (cql/058_set_fill_scans.cql) fills every user's membership sets that no read
 * has filled yet, found through the source tables and the sets themselves, and leaves a filled one
 * alone. The walk starts near the end of the token ring, where the users of this test are, so it
 * visits a sixteenth of the partitions earlier tests left.
 */
@QuarkusTest
class SetFillsJobTest {
    private static final String CONVERSATIONS = "conversation_memberships_by_user";
    private static final String GROUPS = "group_memberships_by_user";
    private static final long WALK_FROM = Long.MAX_VALUE - (1L << 60);
    private static final Murmur3TokenFactory TOKENS = new Murmur3TokenFactory();

    @Inject
    StoredRows stored;

    @Inject
    Instance<DataMigration> migrations;

    @Test
    void should_fill_every_set_no_read_has_filled_and_leave_filled_ones_alone() {
        Instant now = Instant.now();
        long anHourAgo = ChronoUnit.MICROS.between(Instant.EPOCH, now.minus(Duration.ofHours(1)));
        // As releases without the sets left them: ann's conversation and bob's group only in the
        // sources, each with a set row a leave there left behind; cid only a group set row.
        String ann = nearTheRingsEnd("ann");
        String bob = nearTheRingsEnd("bob");
        String cid = nearTheRingsEnd("cid");
        String dee = nearTheRingsEnd("dee");
        UUID conversation = UUID.randomUUID();
        WithoutSets.conversationMembership(stored, ann, conversation, bob, now);
        stored.execute(
                "INSERT INTO " + CONVERSATIONS + " (username, generation, conversation_id, added_by, joined_at) "
                        + "VALUES (?, 0, ?, ?, ?) USING TIMESTAMP " + anHourAgo,
                ann,
                UUID.randomUUID(),
                cid,
                now.minus(Duration.ofHours(1)));
        stored.execute(
                "INSERT INTO groups_by_user (username, groupname, bucket, joined) VALUES (?, 'walked', 0, now())", bob);
        for (String user : List.of(bob, cid)) {
            stored.execute(
                    "INSERT INTO " + GROUPS + " (username, generation, groupname, joined) VALUES (?, 0, 'left', now()) "
                            + "USING TIMESTAMP " + anHourAgo,
                    user);
        }
        // dee's set was filled by a read; what its source holds since is not the walk's to change.
        WithoutSets.conversationMembership(stored, dee, UUID.randomUUID(), ann, now);
        stored.execute(
                "INSERT INTO set_fills (set_name, set_key, filled_at) VALUES (?, ?, ?)", CONVERSATIONS, dee, now);
        for (String set : List.of(CONVERSATIONS, GROUPS)) {
            stored.execute("DELETE FROM set_fill_scans WHERE set_name = ?", set);
        }
        for (String table : List.of("inbox_by_user", CONVERSATIONS)) {
            walkFrom(CONVERSATIONS, table);
        }
        for (String table : List.of("groups_by_user", GROUPS)) {
            walkFrom(GROUPS, table);
        }

        DataMigration job = migrations.stream()
                .filter(m -> m.name().equals("set-fills"))
                .findFirst()
                .orElseThrow();
        int steps = 0;
        while (job.step().get().await().atMost(Duration.ofMinutes(2)) != null) {
            steps++;
        }

        assertThat(steps).as("a batch or more per table walked").isGreaterThanOrEqualTo(4);
        assertThat(conversations(ann)).as("ann's set").isEqualTo(Map.of(conversation.toString(), bob));
        assertThat(groups(bob)).as("bob's set").containsExactly("walked");
        assertThat(groups(cid)).as("cid's set, found in the set alone").isEmpty();
        assertThat(conversations(dee)).as("dee's set, filled before").isEmpty();
        for (List<String> filled : List.of(List.of(CONVERSATIONS, ann), List.of(GROUPS, bob), List.of(GROUPS, cid))) {
            assertThat(stored.execute(
                            "SELECT filled_at FROM set_fills WHERE set_name = ? AND set_key = ?",
                            filled.get(0),
                            filled.get(1)))
                    .as("%s noted as filled", filled)
                    .hasSize(1);
        }
        for (String set : List.of(CONVERSATIONS, GROUPS)) {
            assertThat(stored.execute("SELECT scanned_table, finished_at FROM set_fill_scans WHERE set_name = ?", set))
                    .as("every walk of %s finished", set)
                    .hasSize(2)
                    .allSatisfy(row -> assertThat(row.getInstant("finished_at")).isAfter(now));
        }
        assertThat(job.step().get().await().atMost(Duration.ofMinutes(1)))
                .as("nothing left")
                .isNull();
    }

    /** A user name whose partitions, by name and by name and generation 0, are at the ring's end. */
    private static String nearTheRingsEnd(String prefix) {
        while (true) {
            String name =
                    prefix + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
            ByteBuffer key = ByteBuffer.wrap(name.getBytes(StandardCharsets.UTF_8));
            ByteBuffer generation = ByteBuffer.allocate(4).putInt(0).flip();
            if (token(key.duplicate()) >= WALK_FROM && token(RoutingKey.compose(key, generation)) >= WALK_FROM) {
                return name;
            }
        }
    }

    private static long token(ByteBuffer partitionKey) {
        return ((Murmur3Token) TOKENS.hash(partitionKey)).getValue();
    }

    private void walkFrom(String set, String table) {
        stored.execute(
                "INSERT INTO set_fill_scans (set_name, scanned_table, scanned_to) VALUES (?, ?, ?)",
                set,
                table,
                WALK_FROM);
    }

    private Map<String, String> conversations(String username) {
        Map<String, String> held = new HashMap<>();
        for (Row row : stored.execute(
                "SELECT conversation_id, added_by FROM " + CONVERSATIONS + " WHERE username = ? AND generation = ?",
                username,
                SetGenerations.current(stored, CONVERSATIONS, username))) {
            held.put(row.getUuid("conversation_id").toString(), row.getString("added_by"));
        }
        return held;
    }

    private List<String> groups(String username) {
        return stored
                .execute(
                        "SELECT groupname FROM " + GROUPS + " WHERE username = ? AND generation = ?",
                        username,
                        SetGenerations.current(stored, GROUPS, username))
                .stream()
                .map(row -> row.getString("groupname"))
                .toList();
    }
}
