package dev.cqlpatterns.contract;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.cqlpatterns.testsupport.SignUp;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.YearMonth;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.UUID;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every operation of openapi.yaml, run once on fixtures made here over HTTP, costs what the
 * {@code -- cost} line of its cql/ file says: both accounting headers, {@code X-Statements} and
 * {@code X-Partitions-Read}. The cost of a statement is declared with it (platform.cassandra.Query);
 * this is where a wrong declaration, or a route that runs more than its table's comment says, shows.
 */
@QuarkusTest
class StatementCostTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** {@code -- cost GET /pastes/{id}: 1 statement, 1 partition} */
    static final Pattern COST =
            Pattern.compile("^-- cost (GET|PUT|POST|DELETE) (\\S+): (\\d+) statements?, (\\d+) partitions?\\b.*$");

    private static final Pattern MARKED = Pattern.compile("-- cost [A-Z]+ /");
    private static final Set<String> METHODS = Set.of("get", "put", "post", "delete", "patch");

    /** What an answer cost. */
    record Cost(int statements, int partitions) {
        @Override
        public String toString() {
            return statements + " statement(s), " + partitions + " partition(s)";
        }
    }

    private final Map<String, Supplier<Response>> table = new LinkedHashMap<>();
    private final String u = UUID.randomUUID().toString().substring(0, 8);

    private static RequestSpecification as(String username) {
        return given().header("Authorization", Tokens.bearer(username));
    }

    private static RequestSpecification json(String username, Object body) {
        return as(username).contentType(ContentType.JSON).body(body);
    }

    /** The operations in the order they run: later ones use what earlier ones made. */
    private void operations() {
        String alice = SignUp.user("cost-alice-" + u);
        String bob = SignUp.user("cost-bob-" + u);
        String carol = SignUp.user("cost-carol-" + u);
        String erin = SignUp.user("cost-erin-" + u);
        String dave = "cost-dave-" + u;
        // users: dave signs up, then reads and changes himself
        on(
                "POST /users",
                () -> json(dave, Map.of("username", dave, "email", dave + "@example.com", "age", 40))
                        .post("/users"));
        on("GET /users/{username}", () -> as(dave).get("/users/{u}", dave));
        on(
                "GET /users",
                () -> as(dave).queryParam("email", dave + "@example.com").get("/users"));
        Map<String, Object> address = Map.of("street", "1 Main Street", "city", "Springfield", "zip", 12345);
        on("PUT /users/{username}/addresses/{kind}", () -> json(dave, address).put("/users/{u}/addresses/home", dave));
        on("DELETE /users/{username}/addresses/{kind}", () -> as(dave).delete("/users/{u}/addresses/home", dave));
        on(
                "PUT /users/{username}/email",
                () -> json(dave, Map.of("email", dave + "@example.org")).put("/users/{u}/email", dave));

        // messenger: a group conversation of alice, bob and carol; erin joins it, carol leaves
        String[] conversation = new String[1];
        on("POST /conversations", () -> {
            Response created = json(alice, Map.of("members", List.of(bob, carol), "title", "Trip"))
                    .post("/conversations");
            conversation[0] = created.path("id");
            return created;
        });
        on("GET /conversations/{id}", () -> as(alice).get("/conversations/{id}", conversation[0]));
        on(
                "PUT /conversations/{id}/members/{username}",
                () -> as(alice).put("/conversations/{id}/members/{u}", conversation[0], erin));
        on(
                "POST /conversations/{id}/messages",
                () -> json(alice, Map.of("content", "Where are you?"))
                        .post("/conversations/{id}/messages", conversation[0]));
        on("GET /conversations/{id}/messages", () -> as(bob).get("/conversations/{id}/messages", conversation[0]));
        on("GET /inbox", () -> as(bob).get("/inbox"));
        on("POST /conversations/{id}/read", () -> as(bob).post("/conversations/{id}/read", conversation[0]));
        on("GET /messages", () -> as(bob).queryParam("sender", alice).get("/messages"));
        on(
                "DELETE /conversations/{id}/members/{username}",
                () -> as(carol).delete("/conversations/{id}/members/{u}", conversation[0], carol));

        // courses: a new course of alice, one module, one view
        String course = "cost-course-" + u;
        on("PUT /courses/{courseId}", () -> json(alice, Map.of("name", "Costs")).put("/courses/{c}", course));
        on(
                "PUT /courses/{courseId}/modules/{moduleId}",
                () -> json(alice, Map.of("name", "One")).put("/courses/{c}/modules/1", course));
        on("GET /courses/{courseId}", () -> as(alice).get("/courses/{c}", course));
        on("DELETE /courses/{courseId}/modules/{moduleId}", () -> as(alice).delete("/courses/{c}/modules/1", course));
        on("POST /courses/{courseId}/views", () -> as(alice).post("/courses/{c}/views", course));
        on("GET /courses/{courseId}/views", () -> as(alice).get("/courses/{c}/views", course));

        // clickstream: one click this month, then this month's clicks
        String month = YearMonth.now(ZoneOffset.UTC).toString();
        on(
                "POST /clicks",
                () -> json(alice, Map.of("url", "https://example.org/" + u, "ip", "98.203.153.64"))
                        .post("/clicks"));
        on(
                "GET /clicks",
                () -> as(alice)
                        .queryParam("from", month)
                        .queryParam("to", month)
                        .get("/clicks"));

        // pastebin: two public pastes today, so a page of one is found in today's partition
        Map<String, Object> paste = Map.of("title", "cost", "body", "server { listen 80; }", "private", false);
        json(alice, paste).post("/pastes").then().statusCode(201);
        String[] created = new String[2];
        on("POST /pastes", () -> {
            Response r = json(alice, paste).post("/pastes");
            created[0] = r.path("id");
            created[1] = r.path("secret");
            return r;
        });
        on("GET /pastes/{id}", () -> as(alice).get("/pastes/{id}", created[0]));
        on("GET /pastes", () -> as(alice).queryParam("limit", 1).get("/pastes"));
        on(
                "PUT /pastes/{id}",
                () -> json(alice, Map.of("title", "cost, fixed"))
                        .header("X-Paste-Secret", created[1])
                        .put("/pastes/{id}", created[0]));
        on(
                "DELETE /pastes/{id}",
                () -> as(alice).header("X-Paste-Secret", created[1]).delete("/pastes/{id}", created[0]));

        // posts: one post, one comment
        String[] post = new String[1];
        on("POST /posts", () -> {
            Response r = json(alice, Map.of("body", "Query first.")).post("/posts");
            post[0] = r.path("id");
            return r;
        });
        on("GET /posts/{id}", () -> as(alice).get("/posts/{id}", post[0]));
        on(
                "POST /posts/{id}/comments",
                () -> json(bob, Map.of("body", "Then tables.")).post("/posts/{id}/comments", post[0]));

        // songs: a new song with one tag, then a second tag added and removed
        String artist = "Cost " + u;
        String tag = "cost-" + u;
        on(
                "PUT /songs/{artist}/{album}/{song}",
                () -> json(alice, Map.of("tags", List.of(tag))).put("/songs/{a}/{b}/{s}", artist, "Album", "Song"));
        on("GET /songs/{artist}/{album}/{song}", () -> as(alice).get("/songs/{a}/{b}/{s}", artist, "Album", "Song"));
        on("GET /songs", () -> as(alice).queryParam("tag", tag).get("/songs"));
        on(
                "PUT /songs/{artist}/{album}/{song}/tags/{tag}",
                () -> as(alice).put("/songs/{a}/{b}/{s}/tags/{t}", artist, "Album", "Song", tag + "-2"));
        on(
                "DELETE /songs/{artist}/{album}/{song}/tags/{tag}",
                () -> as(alice).delete("/songs/{a}/{b}/{s}/tags/{t}", artist, "Album", "Song", tag + "-2"));

        // groups: alice joins (and so creates) a new group, then leaves it
        String group = "cost-group-" + u;
        on("PUT /groups/{group}/members/{username}", () -> as(alice).put("/groups/{g}/members/{u}", group, alice));
        on("GET /groups/{group}/members", () -> as(alice).get("/groups/{g}/members", group));
        on("GET /groups/{group}/members/latest", () -> as(alice).get("/groups/{g}/members/latest", group));
        on(
                "DELETE /groups/{group}/members/{username}",
                () -> as(alice).delete("/groups/{g}/members/{u}", group, alice));

        // ring: driver metadata only
        on("GET /ring", () -> as(alice).get("/ring"));
        on(
                "GET /ring/{table}/token",
                () -> as(alice).queryParam("key", "name=x").get("/ring/leases/token"));
    }

    private void on(String operation, Supplier<Response> call) {
        assertThat(table.put(operation, call))
                .as("%s twice in the table", operation)
                .isNull();
    }

    @Test
    void every_operation_should_cost_what_its_cql_comment_says() throws IOException {
        operations();
        Map<String, Cost> declared = declaredCosts();
        assertThat(new TreeSet<>(table.keySet()))
                .as("operations of openapi.yaml that the table lacks, or it has too many")
                .isEqualTo(new TreeSet<>(operations(root().resolve("openapi.yaml"))));
        assertThat(new TreeSet<>(declared.keySet()))
                .as("operations without a -- cost line in cql/*.cql, or lines of none")
                .isEqualTo(new TreeSet<>(table.keySet()));

        Map<String, String> wrong = new TreeMap<>();
        table.forEach((operation, call) -> {
            Response answer = call.get();
            assertThat(answer.statusCode())
                    .as("%s answered %s", operation, answer.asString())
                    .isBetween(200, 299);
            Cost actual = new Cost(
                    Integer.parseInt(answer.header("X-Statements")),
                    Integer.parseInt(answer.header("X-Partitions-Read")));
            if (!actual.equals(declared.get(operation))) {
                wrong.put(operation, "costs " + actual + ", its cql/ comment says " + declared.get(operation));
            }
        });
        assertThat(wrong).as("operations that cost other than declared").isEmpty();
    }

    static Path root() {
        return Path.of(System.getProperty("cqlpatterns.root", System.getProperty("user.dir")));
    }

    /** "METHOD /path" of every operation of the contract. */
    static List<String> operations(Path openapi) throws IOException {
        JsonNode paths = YAML.readTree(Files.readString(openapi)).path("paths");
        List<String> operations = new ArrayList<>();
        paths.fields()
                .forEachRemaining(path -> path.getValue().fieldNames().forEachRemaining(method -> {
                    if (METHODS.contains(method)) {
                        operations.add(method.toUpperCase(java.util.Locale.ROOT) + " " + path.getKey());
                    }
                }));
        return operations;
    }

    /** Every {@code -- cost} line of cql/*.cql; an operation declared twice fails. */
    static Map<String, Cost> declaredCosts() throws IOException {
        Map<String, Cost> costs = new TreeMap<>();
        List<Path> files;
        try (Stream<Path> listed = Files.list(root().resolve("cql"))) {
            files = listed.filter(p -> p.toString().endsWith(".cql")).sorted().toList();
        }
        for (Path file : files) {
            for (String line : Files.readAllLines(file)) {
                if (!MARKED.matcher(line).lookingAt()) { // prose may say "cost" too
                    continue;
                }
                Matcher m = COST.matcher(line);
                assertThat(m.matches())
                        .as("%s: a -- cost line that does not parse: %s", file.getFileName(), line)
                        .isTrue();
                Cost previous = costs.put(
                        m.group(1) + " " + m.group(2),
                        new Cost(Integer.parseInt(m.group(3)), Integer.parseInt(m.group(4))));
                assertThat(previous)
                        .as("%s: a second -- cost line of %s %s", file.getFileName(), m.group(1), m.group(2))
                        .isNull();
            }
        }
        return costs;
    }
}
