package dev.cqlpatterns.pastebin;

import static dev.cqlpatterns.pastebin.PastebinTest.createPublic;
import static dev.cqlpatterns.pastebin.PastebinTest.createdQuickly;
import static dev.cqlpatterns.pastebin.PastebinTest.deletedQuickly;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.ChurnProfile;
import dev.cqlpatterns.testsupport.ReadTraces;
import dev.cqlpatterns.testsupport.SetGenerations;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * GET /pastes after many public pastes were created and deleted through the routes (the cheapest
 * way for a client to leave dead rows in the list): counts, from the node's traces, the tombstone
 * cells the list's reads scan. With the day's partition in generations
 * (cql/050_latest_public_pastes_by_period_generations.cql) at most the hides one generation collects;
 * on one partition per day, one per paste deleted that day.
 */
@QuarkusTest
@TestProfile(ChurnProfile.class)
class LatestPastesHiddenTest {

    @Inject
    StoredRows stored;

    @Test
    void should_scan_no_more_tombstones_after_ten_times_the_deleted_pastes() {
        String lasting = createPublic("lasting", "P1D").id();
        long small = deadCellsAfter(30, lasting);
        long large = deadCellsAfter(270, lasting);

        assertThat(List.of(small, large))
                .as("tombstone cells of GET /pastes after 30 and 300 pastes deleted")
                .allSatisfy(cells -> assertThat(cells)
                        .isLessThanOrEqualTo((long) ChurnProfile.REMOVALS + SetGenerations.DURING_A_MOVE));
    }

    /** Creates and deletes {@code deleted} public pastes of a day, then answers the tombstone cells the newest page scans. */
    private long deadCellsAfter(int deleted, String lasting) {
        for (int i = 0; i < deleted; i++) {
            deletedQuickly(createdQuickly("deleted " + i, "P1D"));
        }
        String day = Integer.toString(PublicPasteList.day(Instant.now()));
        return ReadTraces.setTombstones(
                stored,
                "latest_public_pastes_by_period",
                day,
                "GET /pastes",
                deleted + " more pastes deleted",
                () -> assertThat(given().queryParam("limit", 1)
                                .get("/pastes")
                                .then()
                                .statusCode(200)
                                .extract()
                                .jsonPath()
                                .getList("items.id", String.class))
                        .as("the newest public paste after the deletes")
                        .containsExactly(lasting));
    }
}
