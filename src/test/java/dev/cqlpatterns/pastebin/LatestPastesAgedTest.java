package dev.cqlpatterns.pastebin;

import static dev.cqlpatterns.pastebin.PastebinTest.createPublic;
import static dev.cqlpatterns.pastebin.PastebinTest.createdQuickly;
import static dev.cqlpatterns.pastebin.PastebinTest.latestIds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.Concurrently;
import dev.cqlpatterns.testsupport.ReadTraces;
import dev.cqlpatterns.testsupport.SmallLimitsProfile;
import dev.cqlpatterns.testsupport.StoredRows;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * GET /pastes after many short-lived public pastes have expired, on the nodes' own clock (real TTLs
 * of seconds; the service's clock is not moved). Counts, from the node's traces, the tombstone cells
 * the list's reads scan (cql/031_latest_public_pastes_by_period.cql states the bound): the same after
 * ten times the expired pastes.
 */
@QuarkusTest
@TestProfile(SmallLimitsProfile.class)
class LatestPastesAgedTest {
    /** Listed for the profile's 3 s period; the paste itself lives a second longer. */
    private static final String SHORT = "PT4S";

    private static final int WRITERS = 4;

    @Inject
    StoredRows stored;

    @Test
    void should_scan_the_same_dead_cells_after_ten_times_the_expired_pastes() throws InterruptedException {
        List<String> lasting = new ArrayList<>();
        lasting.add(createPublic("lasting 0", "PT2H").id());
        long small = deadCellsAfter(50, lasting);
        long large = deadCellsAfter(450, lasting);

        assertThat(large)
                .as("tombstone cells of GET /pastes after 50 and 500 expired pastes (%d)", small)
                .isEqualTo(small);
    }

    /**
     * Creates {@code expiring} short-lived public pastes with a lasting one among every hundred, waits
     * until the short ones have expired, checks the lasting ones are listed, and answers the tombstone
     * cells one GET /pastes scanned.
     */
    private long deadCellsAfter(int expiring, List<String> lasting) throws InterruptedException {
        List<String> expired = new CopyOnWriteArrayList<>();
        List<String> added = new CopyOnWriteArrayList<>();
        // Created by WRITERS callers at once, as many clients would: the aging is in the pastes, not their order.
        Concurrently.run(IntStream.range(0, WRITERS).boxed().toList(), writer -> {
            for (int i = writer; i < expiring; i += WRITERS) {
                expired.add(createdQuickly("short " + i, SHORT).path("id").asText());
                if (i % 100 == 50) {
                    added.add(createdQuickly("lasting " + i, "PT2H").path("id").asText());
                }
            }
            return null;
        });
        lasting.addAll(added);
        Thread.sleep(5_000);
        List<ReadTraces.Scan> scans = ReadTraces.during(stored, () -> {
            List<String> listed = latestIds();
            assertThat(listed)
                    .as("the list after the short-lived pastes expired")
                    .containsAll(lasting);
            assertThat(listed)
                    .as("the list after the short-lived pastes expired")
                    .doesNotContainAnyElementsOf(expired);
        });
        List<ReadTraces.Scan> list = scans.stream()
                .filter(s -> s.query().contains("latest_public_pastes"))
                .toList();
        assertThat(list).as("traced reads of GET /pastes").isNotEmpty();
        return ReadTraces.tombstones(list);
    }
}
