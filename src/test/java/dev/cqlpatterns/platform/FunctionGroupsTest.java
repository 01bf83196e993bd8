package dev.cqlpatterns.platform;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;

import dev.cqlpatterns.clickstream.RecordClick;
import dev.cqlpatterns.groups.JoinGroup;
import dev.cqlpatterns.messenger.SendMessage;
import dev.cqlpatterns.pastebin.CreatePaste;
import dev.cqlpatterns.platform.buckets.BucketRoller;
import dev.cqlpatterns.platform.cassandra.Cql;
import dev.cqlpatterns.platform.functions.FunctionGroup;
import dev.cqlpatterns.platform.scheduling.ClusterJob;
import dev.cqlpatterns.posts.CreatePost;
import dev.cqlpatterns.ring.TokenRing;
import dev.cqlpatterns.songs.SongStore;
import dev.cqlpatterns.testsupport.Tokens;
import dev.cqlpatterns.users.UserStore;
import io.quarkus.arc.Arc;
import io.quarkus.scheduler.Scheduler;
import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.QuarkusTestProfile;
import io.quarkus.test.junit.TestProfile;
import jakarta.inject.Inject;
import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * A deployment built with one function group (pastebin here) carries nothing of the others: their
 * routes answer 404, none of their beans exist, none of their statements is prepared, and only
 * the jobs of what is deployed are scheduled.
 */
@QuarkusTest
@TestProfile(FunctionGroupsTest.PastebinOnly.class)
class FunctionGroupsTest {

    /** The build properties of a pastebin-only artifact (test profiles re-run the build). */
    public static class PastebinOnly implements QuarkusTestProfile {
        @Override
        public Map<String, String> getConfigOverrides() {
            return Arrays.stream(FunctionGroup.values())
                    .collect(Collectors.toMap(
                            FunctionGroup::property, g -> Boolean.toString(g == FunctionGroup.PASTEBIN)));
        }
    }

    @Inject
    Cql cql;

    @Inject
    Scheduler scheduler;

    @Test
    void should_answer_404_on_every_route_of_a_group_that_is_not_deployed() {
        for (FunctionGroup group : FunctionGroup.values()) {
            if (group == FunctionGroup.PASTEBIN) {
                continue;
            }
            for (String prefix : group.pathPrefixes()) {
                // outside this artifact's contract on purpose, so not checked against openapi.yaml
                given().noFilters()
                        .header("Authorization", Tokens.bearer("alice"))
                        .when()
                        .get(prefix + "/anything")
                        .then()
                        .statusCode(404);
                given().noFilters()
                        .header("Authorization", Tokens.bearer("alice"))
                        .when()
                        .get(prefix)
                        .then()
                        .statusCode(404);
            }
        }
        given().when().get("/pastes").then().statusCode(200);
    }

    @Test
    void should_create_no_bean_of_a_group_that_is_not_deployed() {
        for (Class<?> absent : new Class<?>[] {
            SendMessage.class,
            TokenRing.class,
            RecordClick.class,
            UserStore.class,
            JoinGroup.class,
            SongStore.class,
            CreatePost.class
        }) {
            assertThat(Arc.container().select(absent).isResolvable())
                    .as(absent.getSimpleName())
                    .isFalse();
        }
        assertThat(Arc.container().select(CreatePaste.class).isResolvable()).isTrue();
    }

    @Test
    void should_schedule_and_run_only_the_jobs_of_what_is_deployed() {
        assertThat(scheduler.getScheduledJobs())
                .extracting(job -> job.getId())
                .containsExactlyInAnyOrder("bucket-roller");
        assertThat(Arc.container().select(ClusterJob.class).stream().map(ClusterJob::name))
                .containsExactlyInAnyOrder(BucketRoller.JOB);
        // the roller rolls the pastebin's series, not the clickstream's (the tests add one of their own)
        assertThat(Arc.container().select(BucketRoller.class).get().globalSeries())
                .extracting(series -> series.name())
                .contains("pastes")
                .doesNotContain("clickstream");
    }

    @Test
    void should_prepare_only_the_statements_of_what_is_deployed() {
        given().contentType("application/json")
                .body("{\"title\":\"t\",\"body\":\"hello\",\"private\":false}")
                .when()
                .post("/pastes")
                .then()
                .statusCode(201);
        given().when().get("/pastes").then().statusCode(200).body("items[0].title", equalTo("t"));
        // Besides the pastebin's own tables, the platform's it uses: buckets, leases, generations.
        assertThat(cql.preparedCql())
                .isNotEmpty()
                .allSatisfy(statement -> assertThat(statement.toLowerCase())
                        .containsAnyOf("paste", "time_buckets", "leases", "partition_generations", "partition_removals")
                        .doesNotContain(
                                "conversation",
                                "inbox",
                                "message",
                                "course",
                                "click",
                                "users",
                                "group",
                                "song",
                                "post_"));
    }
}
