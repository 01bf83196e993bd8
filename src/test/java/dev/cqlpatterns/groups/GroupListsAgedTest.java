package dev.cqlpatterns.groups;

import static dev.cqlpatterns.groups.GroupMembersTest.createUser;
import static dev.cqlpatterns.groups.GroupMembersTest.join;
import static dev.cqlpatterns.groups.GroupMembersTest.members;
import static dev.cqlpatterns.groups.GroupMembersTest.unique;
import static dev.cqlpatterns.groups.LatestJoinersTest.latest;
import static dev.cqlpatterns.testsupport.ContractClient.TEST_APPLICATION;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.ChurnProfile;
import dev.cqlpatterns.testsupport.ReadTraces;
import dev.cqlpatterns.testsupport.SetGenerations;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/**
 * A group's two lists after members joined and left through the routes: counts, from the node's
 * traces, the tombstone cells GET /groups/{group}/members and .../members/latest scan. With
 * generations (cql/049_partition_generations.cql) at most the leaves one generation collects,
 * whatever the churn; on one partition for ever, one per member who left.
 */
@QuarkusTest
@TestProfile(ChurnProfile.class)
class GroupListsAgedTest {

    @Inject
    StoredRows stored;

    @Test
    void should_scan_no_more_tombstones_after_ten_times_the_leaves() {
        String group = unique("aged-");
        String lasting = unique("zz");
        createUser(lasting, 40);
        join(lasting, group, lasting).then().statusCode(201);
        String run = unique("a");

        List<Long> small = deadCellsAfter(group, run, 0, 30, lasting);
        List<Long> large = deadCellsAfter(group, run, 30, 300, lasting);

        assertThat(List.of(small, large))
                .as("tombstone cells of the members list and the latest joiners after 30 and 300 leaves")
                .allSatisfy(routes -> assertThat(routes)
                        .allSatisfy(cells -> assertThat(cells)
                                .isLessThanOrEqualTo((long) ChurnProfile.REMOVALS + SetGenerations.DURING_A_MOVE)));
    }

    /** Members {@code from} to {@code to} join and leave; answers the tombstone cells each list's read scans. */
    private List<Long> deadCellsAfter(String group, String run, int from, int to, String lasting) {
        for (int i = from; i < to; i++) {
            String name = String.format("%s-%04d", run, i);
            TEST_APPLICATION.expect(
                    201, "POST", "/users", name, Map.of("username", name, "email", name + "@example.com", "age", 30));
            TEST_APPLICATION.expect(201, "PUT", "/groups/" + group + "/members/" + name, name, null);
            TEST_APPLICATION.expect(204, "DELETE", "/groups/" + group + "/members/" + name, name, null);
        }
        SetGenerations.quiet(stored, "group_members", group);
        long byName = cells(() -> members(group, 10, null), lasting);
        long byJoin = cells(() -> latest(group, 10, null), lasting);
        System.out.printf(
                "group lists after %d leaves: %d tombstone cells by name, %d newest first (generation %d)%n",
                to, byName, byJoin, SetGenerations.current(stored, "group_members", group));
        return List.of(byName, byJoin);
    }

    private long cells(Supplier<Response> read, String lasting) {
        List<ReadTraces.Scan> scans = ReadTraces.during(
                stored,
                () -> assertThat(read.get()
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .getList("items.username", String.class))
                        .as("the list after the leaves")
                        .containsExactly(lasting));
        List<ReadTraces.Scan> lists = scans.stream()
                .filter(s -> s.query().contains("group_members") || s.query().contains("group_join_dates"))
                .toList();
        assertThat(lists).as("traced reads of the list").isNotEmpty();
        return ReadTraces.tombstones(lists);
    }
}
