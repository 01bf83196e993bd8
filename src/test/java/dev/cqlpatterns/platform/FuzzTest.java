package dev.cqlpatterns.platform;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.cqlpatterns.messenger.MessagesBySender;
import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.platform.paging.Cursors;
import dev.cqlpatterns.testsupport.ForgedPagingStates;
import dev.cqlpatterns.testsupport.Tokens;
import dev.cqlpatterns.testsupport.fuzz.ApiContract;
import dev.cqlpatterns.testsupport.fuzz.ApiContract.Operation;
import dev.cqlpatterns.testsupport.fuzz.FuzzRequest;
import dev.cqlpatterns.testsupport.fuzz.MalformedRequests;
import dev.cqlpatterns.testsupport.fuzz.RawHttp;
import dev.cqlpatterns.testsupport.fuzz.Targets;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import jakarta.inject.Inject;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.UUID;
import net.jqwik.api.RandomGenerator;
import net.jqwik.api.sessions.JqwikSession;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * Property-based fuzzing of every operation of openapi.yaml: for each one, jqwik's generators
 * ({@link MalformedRequests}) make requests the contract says are wrong, aimed at resources made
 * before the run, and every answer must be a refusal that the API describes:
 * <ul>
 * <li>no 5xx, and no success: each request has at least one fault, so each answer is a 4xx;</li>
 * <li>every 4xx is {@code application/problem+json} with a {@code type}, a {@code title} and the
 * answer's {@code status};</li>
 * <li>refused requests change nothing stored: the resources read the same after the run as before.</li>
 * </ul>
 *
 * <p>Why a Jupiter test drives jqwik's generators instead of a jqwik {@code @Property}: properties
 * run on jqwik's own engine, and Quarkus's JUnit extension, which starts the application (and with it
 * the test Cassandra), serves Jupiter tests only. Starting the packaged jar instead would make the
 * fuzzer an integration test that needs {@code package} first. So the application is the one every
 * {@code @QuarkusTest} shares, and the generators are drawn from with a fixed seed and a fixed count;
 * jqwik's engine runs the generators' own properties in {@link MalformedRequestsTest}. There is no
 * shrinking: a failure prints the whole request instead, and the same seed draws the same faults.
 *
 * <p>The requests go through a raw socket client ({@link RawHttp}): it sends bytes no HTTP library
 * lets through, and bypasses REST Assured's contract validation, which would fail requests that are
 * invalid on purpose. The set-up requests are valid and do go through it.
 *
 * <p>Bounded for CI: {@value #DEFAULT_TRIES} requests by default with seed {@value #DEFAULT_SEED}
 * (round robin over the operations). A long run, with another seed:
 * <pre>
 * ./mvnw test -Dtest=FuzzTest -Dfuzz.tries=100000 -Dfuzz.seed=$RANDOM
 * </pre>
 */
@QuarkusTest
class FuzzTest {
    static final int DEFAULT_TRIES = 1_500;
    static final long DEFAULT_SEED = 13;
    private static final int MAX_REPORTED_PER_KIND = 6;
    private static final ObjectMapper JSON = new ObjectMapper();

    @Inject
    Cursors cursors;

    @Test
    void every_malformed_request_is_refused_with_a_problem_and_changes_nothing() throws IOException {
        int tries = Integer.getInteger("fuzz.tries", DEFAULT_TRIES);
        long seed = Long.getLong("fuzz.seed", DEFAULT_SEED);
        Fixtures fixtures = Fixtures.create(cursors);
        Map<String, JsonNode> before = fixtures.snapshot();

        List<Operation> operations =
                ApiContract.read(root().resolve("openapi.yaml")).operations();
        assertThat(operations).hasSizeGreaterThan(40);
        // jqwik's session is what lets its generators run outside its engine (on a Jupiter test's thread)
        List<String> refusals;
        JqwikSession.start();
        try {
            refusals = fuzz(fixtures, operations, tries, seed);
        } finally {
            JqwikSession.finish();
        }

        Map<String, JsonNode> after = fixtures.snapshot();
        List<String> changed = new ArrayList<>();
        before.forEach((what, was) -> {
            if (!was.equals(after.get(what))) {
                changed.add(what + "\n  before: " + was + "\n  after:  " + after.get(what));
            }
        });
        SoftAssertions.assertSoftly(softly -> {
            softly.assertThat(refusals)
                    .as("malformed requests (seed %d) not refused with a problem", seed)
                    .isEmpty();
            softly.assertThat(changed)
                    .as("what the refused requests changed (seed %d)", seed)
                    .isEmpty();
        });
    }

    /** Sends {@code tries} malformed requests; returns what was wrong with the answers, the first ones of each kind. */
    private static List<String> fuzz(Fixtures fixtures, List<Operation> operations, int tries, long seed) {
        Map<String, RandomGenerator<FuzzRequest>> generators = new LinkedHashMap<>();
        for (Operation operation : operations) {
            generators.put(
                    operation.id(),
                    MalformedRequests.forOperation(operation, fixtures.targets())
                            .generator(1_000));
        }
        RawHttp http = new RawHttp("localhost", RestAssured.port);
        Random random = new Random(seed);
        List<String> failures = new ArrayList<>();
        Map<String, Integer> reported = new TreeMap<>();
        int failed = 0;
        Map<String, Map<Integer, Integer>> statuses = new TreeMap<>();
        long started = System.nanoTime();
        for (int i = 0; i < tries; i++) {
            Operation operation = operations.get(i % operations.size());
            FuzzRequest request = generators.get(operation.id()).next(random).value();
            String failure;
            int status = -1;
            try {
                RawHttp.Answer answer = http.send(request);
                status = answer.status();
                failure = check(request, answer);
            } catch (IOException e) {
                failure = "no answer: " + e;
            }
            statuses.computeIfAbsent(operation.id(), k -> new TreeMap<>()).merge(status, 1, Integer::sum);
            if (failure != null) {
                failed++;
                String kind = failure.substring(0, failure.indexOf(':'));
                if (reported.merge(kind, 1, Integer::sum) <= MAX_REPORTED_PER_KIND) {
                    failures.add("try " + i + ": " + failure + "\n" + request.show());
                }
            }
        }
        long millis = (System.nanoTime() - started) / 1_000_000;
        System.out.printf(
                "FuzzTest: %d requests (seed %d) in %d ms; answers per operation: %s%n", tries, seed, millis, statuses);
        if (failed > failures.size()) {
            failures.add("... " + failed + " of " + tries + " in all: " + reported);
        }
        return failures;
    }

    /** Null when the answer is a refusal the API describes, else what is wrong with it. */
    private static String check(FuzzRequest request, RawHttp.Answer answer) {
        int status = answer.status();
        String head = status + " " + answer.contentType() + " " + cut(answer.bodyText());
        if (status >= 500) {
            return "server error: " + head;
        }
        if (status < 400) {
            return "not refused: " + head;
        }
        if (request.belowApplication() && status == 400 && answer.contentType().isEmpty()) {
            return null; // refused by the HTTP stack before any route (MalformedRequests says which)
        }
        if (!answer.contentType().startsWith(Problem.MEDIA_TYPE)) {
            return "a 4xx without problem+json: " + head;
        }
        try {
            JsonNode problem = JSON.readTree(answer.body());
            if (problem == null
                    || !problem.path("type").isTextual()
                    || !problem.path("title").isTextual()
                    || problem.path("status").asInt() != status) {
                return "a problem without type, title and status " + status + ": " + head;
            }
        } catch (IOException e) {
            return "a problem that is not JSON: " + head;
        }
        return null;
    }

    private static String cut(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }

    private static Path root() {
        return Path.of(System.getProperty("cqlpatterns.root", System.getProperty("user.dir")));
    }

    /**
     * The resources the fuzzer aims at, made through the API before the run: a user with an address,
     * a conversation with messages, a paste (and its secret), a course with modules and views, songs
     * with tags, a group with members, a post with comments.
     */
    record Fixtures(
            String owner,
            String peer,
            String email,
            String conversation,
            String paste,
            String course,
            String group,
            String album,
            String post,
            Targets targets) {
        private static final String ARTIST = "Fuzz Artist";
        private static final String TAG = "fuzzjazz";

        static Fixtures create(Cursors signer) {
            String suffix = UUID.randomUUID().toString().substring(0, 8);
            String owner = "fz" + suffix;
            String peer = owner + "p";
            String email = owner + "@example.com";
            as(owner)
                    .body(Map.of("username", owner, "email", email, "age", 30))
                    .post("/users")
                    .then()
                    .statusCode(201);
            as(peer).body(Map.of("username", peer, "email", peer + "@example.com"))
                    .post("/users")
                    .then()
                    .statusCode(201);
            as(owner + "q")
                    .body(Map.of("username", owner + "q", "email", owner + "q@example.com"))
                    .post("/users")
                    .then()
                    .statusCode(201);
            as(owner)
                    .body(Map.of("street", "1 Main Street", "city", "Springfield", "zip", 12345))
                    .put("/users/{u}/addresses/home", owner)
                    .then()
                    .statusCode(200);

            String conversation = createdId(as(owner)
                    .body(Map.of("members", List.of(peer, owner + "q"), "title", "Fuzz"))
                    .post("/conversations"));
            for (String content : List.of("first", "second")) {
                as(owner)
                        .body(Map.of("content", content))
                        .post("/conversations/{id}/messages", conversation)
                        .then()
                        .statusCode(201);
            }

            var created = given().contentType(ContentType.JSON)
                    .body(Map.of("title", "fuzz " + suffix, "body", "keep me", "private", false))
                    .post("/pastes")
                    .then()
                    .statusCode(201)
                    .extract();
            String paste = created.path("id");
            String secret = created.path("secret");
            given().contentType(ContentType.JSON)
                    .body(Map.of("body", "another", "private", false))
                    .post("/pastes")
                    .then()
                    .statusCode(201);

            String course = "fuzz-" + suffix;
            as(owner)
                    .body(Map.of("name", "Fuzzing"))
                    .put("/courses/{c}", course)
                    .then()
                    .statusCode(200);
            for (int module = 1; module <= 2; module++) {
                as(owner)
                        .body(Map.of("name", "Module " + module))
                        .put("/courses/{c}/modules/{m}", course, module)
                        .then()
                        .statusCode(200);
                given().post("/courses/{c}/views", course).then().statusCode(201);
            }

            String album = "Album " + suffix;
            for (String song : List.of("Song", "Song 2")) {
                as(owner)
                        .body(Map.of("tags", List.of(TAG, "modal")))
                        .put("/songs/{a}/{b}/{s}", ARTIST, album, song)
                        .then()
                        .statusCode(201);
            }

            String group = "fuzz-" + suffix;
            for (String member : List.of(owner, peer)) {
                as(member).put("/groups/{g}/members/{u}", group, member).then().statusCode(201);
            }

            String post =
                    createdId(as(owner).body(Map.of("body", "Query first.")).post("/posts"));
            for (String comment : List.of("one", "two")) {
                as(peer).body(Map.of("body", comment))
                        .post("/posts/{id}/comments", post)
                        .then()
                        .statusCode(201);
            }

            Map<String, String> path = new LinkedHashMap<>();
            path.put("conversations.id", conversation);
            path.put("conversations.username", peer);
            path.put("pastes.id", paste);
            path.put("posts.id", post);
            path.put("username", owner);
            path.put("courseId", course);
            path.put("moduleId", "1");
            path.put("group", group);
            path.put("kind", "home");
            path.put("table", "leases");
            path.put("artist", ARTIST);
            path.put("album", album);
            path.put("song", "Song");
            path.put("tag", TAG);
            Fixtures fixtures = new Fixtures(owner, peer, email, conversation, paste, course, group, album, post, null);
            Targets targets = new Targets(
                    path,
                    Map.of("sender", owner, "tag", TAG, "email", email, "key", "name=fuzz"),
                    Map.of("X-Paste-Secret", secret),
                    fixtures.cursors(signer),
                    Tokens.bearer(owner),
                    Tokens.bearer(peer));
            return new Fixtures(owner, peer, email, conversation, paste, course, group, album, post, targets);
        }

        /**
         * A next cursor of each list that has a second page, and cursors signed with the service's key
         * that hold paging states no page made (as if the key had leaked).
         */
        private List<Targets.Cursor> cursors(Cursors signer) {
            Map<String, String> lists = new LinkedHashMap<>();
            lists.put("/conversations/{id}/messages", "/conversations/" + conversation + "/messages?limit=1");
            lists.put("/messages", "/messages?limit=1&sender=" + owner);
            lists.put("/posts/{id}", "/posts/" + post + "?limit=1");
            lists.put("/groups/{group}/members", "/groups/" + group + "/members?limit=1");
            lists.put("/groups/{group}/members/latest", "/groups/" + group + "/members/latest?limit=1");
            lists.put("/courses/{courseId}/views", "/courses/" + course + "/views?limit=1");
            lists.put("/songs", "/songs?limit=1&tag=" + TAG);
            lists.put("/pastes", "/pastes?limit=1");
            List<Targets.Cursor> cursors = new ArrayList<>();
            lists.forEach((list, url) -> {
                String next =
                        as(owner).get(url).then().statusCode(200).extract().path("next");
                if (next != null) {
                    cursors.add(new Targets.Cursor(list, next));
                }
            });
            assertThat(cursors).as("cursors of real lists").hasSizeGreaterThan(4);
            String bySender = "by-sender:" + owner + ":" + owner;
            cursors.stream()
                    .filter(c -> c.list().equals("/messages"))
                    .findFirst()
                    .ifPresent(real -> {
                        String state = signer.decode(bySender, real.value(), MessagesBySender.Position.class)
                                .orElseThrow()
                                .pagingState();
                        ForgedPagingStates.from(state)
                                .forEach(forged -> cursors.add(new Targets.Cursor(
                                        "/messages",
                                        signer.encode(bySender, new MessagesBySender.Position(forged)),
                                        true)));
                    });
            return cursors;
        }

        /** What the owner reads of every target, as JSON. */
        Map<String, JsonNode> snapshot() throws IOException {
            Map<String, String> reads = new LinkedHashMap<>();
            reads.put("user", "/users/" + owner);
            reads.put("peer", "/users/" + peer);
            reads.put("user by email", "/users?email=" + email);
            reads.put("conversation", "/conversations/" + conversation);
            reads.put("messages", "/conversations/" + conversation + "/messages?limit=500");
            reads.put("messages by sender", "/messages?limit=500&sender=" + owner);
            reads.put("inbox", "/inbox?limit=500");
            reads.put("paste", "/pastes/" + paste);
            reads.put("course", "/courses/" + course);
            reads.put("course views", "/courses/" + course + "/views?limit=500");
            reads.put(
                    "song",
                    "/songs/" + MalformedRequests.encode(ARTIST) + "/" + MalformedRequests.encode(album) + "/Song");
            reads.put("songs by tag", "/songs?limit=500&tag=" + TAG);
            reads.put("group", "/groups/" + group + "/members?limit=500");
            reads.put("latest joiners", "/groups/" + group + "/members/latest?limit=500");
            reads.put("post", "/posts/" + post + "?limit=500");
            Map<String, JsonNode> snapshot = new LinkedHashMap<>();
            for (Map.Entry<String, String> read : reads.entrySet()) {
                String body = given().urlEncodingEnabled(false)
                        .header("Authorization", Tokens.bearer(owner))
                        .get(read.getValue())
                        .then()
                        .statusCode(200)
                        .extract()
                        .asString();
                snapshot.put(read.getKey(), JSON.readTree(body));
            }
            return snapshot;
        }

        private static io.restassured.specification.RequestSpecification as(String user) {
            return given().header("Authorization", Tokens.bearer(user))
                    .contentType(ContentType.JSON)
                    .when();
        }
    }
}
