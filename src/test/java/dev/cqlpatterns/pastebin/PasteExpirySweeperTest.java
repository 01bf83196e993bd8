package dev.cqlpatterns.pastebin;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import dev.cqlpatterns.platform.cassandra.CassandraSettings;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** The sweeper is run at chosen instants: what it removes is decided by expiry, not by waiting. */
@QuarkusTest
class PasteExpirySweeperTest {
    private static final Duration WAIT = Duration.ofSeconds(20);

    @Inject
    PasteExpirySweeper sweeper;

    @Inject
    QuarkusCqlSession session;

    @Inject
    CassandraSettings settings;

    private boolean listed(PastebinTest.Created paste) {
        Instant createdAt = Instant.parse(paste.json().getString("createdAt"));
        return session.execute(SimpleStatement.newInstance(
                                "SELECT id FROM " + settings.keyspace()
                                        + ".latest_public_pastes WHERE day = ? AND created_at = ? AND id = ?",
                                PublicPasteList.day(createdAt),
                                createdAt,
                                UUID.fromString(paste.id())))
                        .one()
                != null;
    }

    private static Instant expiresAt(io.restassured.path.json.JsonPath json) {
        return Instant.parse(json.getString("expiresAt"));
    }

    @Test
    void should_take_a_paste_off_the_list_once_it_expired_and_not_before() {
        PastebinTest.Created paste = PastebinTest.createPublic("sweep me", "PT1H");
        Instant expiry = expiresAt(paste.json());

        assertThat(sweeper.sweep(expiry.minusSeconds(1)).await().atMost(WAIT)).isGreaterThanOrEqualTo(0);
        assertThat(listed(paste)).isTrue();

        assertThat(sweeper.sweep(expiry.plusSeconds(1)).await().atMost(WAIT)).isGreaterThanOrEqualTo(1);
        assertThat(listed(paste)).isFalse();
        // the paste itself is left to its TTL and to the read-time check
    }

    @Test
    void should_take_off_a_paste_whose_expiry_was_brought_forward() {
        PastebinTest.Created paste = PastebinTest.createPublic("shortened", "P1D");
        Instant shortened = expiresAt(PastebinTest.put(paste.id(), paste.secret(), Map.of("expiresIn", "PT30M"))
                .then()
                .statusCode(200)
                .extract()
                .jsonPath());
        assertThat(listed(paste)).isTrue();

        sweeper.sweep(shortened.plusSeconds(1)).await().atMost(WAIT);
        assertThat(listed(paste)).isFalse();
    }

    @Test
    void should_keep_a_paste_whose_expiry_was_extended() {
        PastebinTest.Created paste = PastebinTest.createPublic("extended", "PT30M");
        Instant first = expiresAt(paste.json());
        PastebinTest.put(paste.id(), paste.secret(), Map.of("expiresIn", "P1D"))
                .then()
                .statusCode(200);

        // the old expiry's entry is swept, but it only removes the version listed with it
        sweeper.sweep(first.plusSeconds(1)).await().atMost(WAIT);
        assertThat(listed(paste)).isTrue();
        assertThat(PastebinTest.latestIds()).contains(paste.id());
    }
}
