package dev.cqlpatterns.contract;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.report.ValidationReport;
import dev.cqlpatterns.testsupport.ContractValidation;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.TestFactory;

/**
 * The contract is never looser than the service: for each limit the service enforces, a request
 * that breaks it is refused by the running service (a 4xx naming the field) AND by the contract
 * validator working offline on openapi.yaml, with no whitelist (a request validation error). A
 * client that validates against the contract, or a typed client generated from it, therefore
 * learns every limit before it sends. The same requests with the limit kept are accepted by the
 * contract, so a row cannot pass because the contract refuses everything.
 *
 * <p>Add a row whenever the service gets a new check.
 */
@QuarkusTest
class ContractRefusesWhatTheServiceRefusesTest {
    private static final String USER =
            "contract_" + UUID.randomUUID().toString().substring(0, 8);
    private static final String V4 = "5d1f0c36-0b89-4c6b-9b0e-6f8a3f0d2f4e";
    private static final String ADDRESS = "{\"street\":\"1 Main Street\",\"city\":\"Springfield\",\"zip\":12345}";

    /** The checked-in contract, without the exemptions the other tests' filter has. */
    private final OpenApiInteractionValidator contract = ContractValidation.strictValidator();

    /** One request: what it breaks ({@code field}), the status the service answers, and the same request kept within the limit. */
    /** Shaped as a paste's secret, and no paste's. */
    private static final String WRONG_SECRET = "A".repeat(43);

    record Row(
            String name,
            Request.Method method,
            String path,
            Map<String, String> query,
            Map<String, String> headers,
            String body,
            int status,
            String field,
            String validBody) {

        Row withHeader(String header, String value) {
            Map<String, String> more = new LinkedHashMap<>(headers);
            more.put(header, value);
            return new Row(name, method, path, query, more, body, status, field, validBody);
        }

        Row withQuery(String parameter, String value) {
            Map<String, String> more = new LinkedHashMap<>(query);
            more.put(parameter, value);
            return new Row(name, method, path, more, headers, body, status, field, validBody);
        }
    }

    private static Row post(String name, String path, String body, String field, String validBody) {
        return new Row(name, Request.Method.POST, path, Map.of(), auth(), body, 400, field, validBody);
    }

    private static Row put(String name, String path, String body, String field, String validBody) {
        return new Row(name, Request.Method.PUT, path, Map.of(), auth(), body, 400, field, validBody);
    }

    private static Row get(String name, String path, String field) {
        return new Row(name, Request.Method.GET, path, Map.of(), auth(), null, 400, field, null);
    }

    private static Map<String, String> auth() {
        Map<String, String> headers = new LinkedHashMap<>();
        headers.put("Authorization", Tokens.bearer(USER));
        return headers;
    }

    private static String paste(String title, String body, String expiresIn) {
        return "{" + (title == null ? "" : "\"title\":" + title + ",") + "\"body\":" + body + ",\"private\":true"
                + (expiresIn == null ? "" : ",\"expiresIn\":" + expiresIn) + "}";
    }

    private static String message(String content, int attachments, String url) {
        String map = IntStream.range(0, attachments)
                .mapToObj(i -> "\"f" + i + ".png\":\"" + url + "\"")
                .collect(Collectors.joining(",", "{", "}"));
        return "{\"content\":" + content + ",\"attachments\":" + map + "}";
    }

    private List<Row> rows() {
        String conversation = "/conversations/" + UUID.randomUUID() + "/messages";
        String pasteId = createPaste();
        String good = "\"https://example.com/a.png\"";
        List<Row> rows = new ArrayList<>();
        // users: usernames, emails and address kinds match the whole value
        rows.add(post(
                "username matched as a whole",
                "/users",
                "{\"username\":\"alice smith\",\"email\":\"a@example.com\"}",
                "username",
                "{\"username\":\"alice_smith\",\"email\":\"a@example.com\"}"));
        rows.add(post(
                "email matched as a whole",
                "/users",
                "{\"username\":\"" + USER + "\",\"email\":\"a b@example.com\"}",
                "email",
                "{\"username\":\"" + USER + "\",\"email\":\"ab@example.com\"}"));
        rows.add(put("address kind matched as a whole", "/users/" + USER + "/addresses/Home", ADDRESS, "kind", null));
        rows.add(put(
                "street not blank",
                "/users/" + USER + "/addresses/home",
                ADDRESS.replace("1 Main Street", "   "),
                "street",
                ADDRESS));
        rows.add(put(
                "city one line",
                "/users/" + USER + "/addresses/home",
                ADDRESS.replace("Springfield", "Spring\\tfield"),
                "city",
                ADDRESS));
        rows.add(put("group name matched as a whole", "/groups/Lunch Club/members/" + USER, null, "group", null));
        // courses
        rows.add(put(
                "course name not blank",
                "/courses/contract-course",
                "{\"name\":\" \"}",
                "name",
                "{\"name\":\"Contracts\"}"));
        rows.add(put(
                "module id at most 1000",
                "/courses/contract-course/modules/1001",
                "{\"name\":\"ab\"}",
                "moduleId",
                null));
        rows.add(put(
                "module name one line",
                "/courses/contract-course/modules/1",
                "{\"name\":\"a\\u0001b\"}",
                "name",
                "{\"name\":\"ab\"}"));
        // messenger
        rows.add(post(
                "message content not blank",
                conversation,
                message("\" \\n \"", 0, ""),
                "content",
                message("\"hi\"", 0, "")));
        rows.add(post(
                "at most 10 attachments",
                conversation,
                message("\"hi\"", 11, "https://example.com/a.png"),
                "attachments",
                message("\"hi\"", 10, "https://example.com/a.png")));
        rows.add(post(
                "attachments are http(s) URLs",
                conversation,
                message("\"hi\"", 1, "ftp://example.com/a.png"),
                "attachments",
                message("\"hi\"", 1, "https://example.com/a.png")));
        rows.add(post(
                "attachment URLs are absolute",
                conversation,
                message("\"hi\"", 1, "/a.png"),
                "attachments",
                message("\"hi\"", 1, "http://example.com/a.png")));
        // pastebin
        rows.add(
                post("paste body not empty", "/pastes", paste(null, "\"\"", null), "body", paste(null, "\"x\"", null)));
        Row tooBig = post(
                "paste body at most 512 KiB",
                "/pastes",
                paste(null, "\"" + "a".repeat(512 * 1024 + 1) + "\"", null),
                "body",
                paste(null, "\"" + "a".repeat(512 * 1024) + "\"", null));
        rows.add(new Row(
                tooBig.name(),
                tooBig.method(),
                tooBig.path(),
                tooBig.query(),
                tooBig.headers(),
                tooBig.body(),
                413,
                tooBig.field(),
                tooBig.validBody()));
        rows.add(post(
                "expiresIn an ISO-8601 duration",
                "/pastes",
                paste(null, "\"x\"", "\"7 days\""),
                "expiresIn",
                paste(null, "\"x\"", "\"P7D\"")));
        rows.add(post(
                "expiresIn positive",
                "/pastes",
                paste(null, "\"x\"", "\"-PT1H\""),
                "expiresIn",
                paste(null, "\"x\"", "\"PT1H\"")));
        rows.add(post(
                "expiresIn not zero",
                "/pastes",
                paste(null, "\"x\"", "\"P0D\""),
                "expiresIn",
                paste(null, "\"x\"", "\"P1D\"")));
        rows.add(post(
                "paste title one line",
                "/pastes",
                paste("\"a\\u0007b\"", "\"x\"", null),
                "title",
                paste("\"ab\"", "\"x\"", null)));
        Row secret = new Row(
                        "update changes something",
                        Request.Method.PUT,
                        "/pastes/" + pasteId,
                        Map.of(),
                        Map.of(),
                        "{}",
                        400,
                        "change",
                        "{\"title\":\"t\"}")
                .withHeader("X-Paste-Secret", WRONG_SECRET);
        rows.add(secret);
        rows.add(new Row(
                        "update expiresIn a duration",
                        Request.Method.PUT,
                        "/pastes/" + pasteId,
                        Map.of(),
                        Map.of(),
                        "{\"expiresIn\":\"P1X\"}",
                        400,
                        "expiresIn",
                        "{\"expiresIn\":\"P1D\"}")
                .withHeader("X-Paste-Secret", WRONG_SECRET));
        rows.add(post(
                "expiresIn at most 32 characters",
                "/pastes",
                paste(null, "\"x\"", "\"PT" + "0".repeat(31) + "1H\""),
                "expiresIn",
                paste(null, "\"x\"", "\"PT" + "0".repeat(28) + "1H\"")));
        rows.add(new Row(
                        "X-Paste-Secret shaped as a secret",
                        Request.Method.PUT,
                        "/pastes/" + pasteId,
                        Map.of(),
                        Map.of(),
                        "{\"title\":\"t\"}",
                        400,
                        "X-Paste-Secret",
                        null)
                .withHeader("X-Paste-Secret", "wrong"));
        rows.add(new Row(
                "X-Paste-Secret required to update",
                Request.Method.PUT,
                "/pastes/" + pasteId,
                Map.of(),
                Map.of(),
                "{\"title\":\"t\"}",
                403,
                "X-Paste-Secret",
                null));
        rows.add(new Row(
                "X-Paste-Secret required to delete",
                Request.Method.DELETE,
                "/pastes/" + pasteId,
                Map.of(),
                Map.of(),
                null,
                403,
                "X-Paste-Secret",
                null));
        // clickstream
        rows.add(post(
                "click url absolute",
                "/clicks",
                "{\"url\":\"/signup\"}",
                "url",
                "{\"url\":\"https://example.com/signup\"}"));
        rows.add(post(
                "click url http(s)",
                "/clicks",
                "{\"url\":\"javascript:alert(1)\"}",
                "url",
                "{\"url\":\"HTTP://example.com\"}"));
        rows.add(post(
                "click ip a literal address, not a name",
                "/clicks",
                "{\"url\":" + good + ",\"ip\":\"example.com\"}",
                "ip",
                "{\"url\":" + good + ",\"ip\":\"2001:db8::1\"}"));
        rows.add(post(
                "click ip an IPv6 address, not only a colon",
                "/clicks",
                "{\"url\":" + good + ",\"ip\":\":\"}",
                "ip",
                "{\"url\":" + good + ",\"ip\":\"::\"}"));
        rows.add(post(
                "click ip a real IPv4 address",
                "/clicks",
                "{\"url\":" + good + ",\"ip\":\"1.2.3.256\"}",
                "ip",
                "{\"url\":" + good + ",\"ip\":\"1.2.3.255\"}"));
        // songs
        rows.add(put(
                "tags at most 50 characters",
                "/songs/Miles Davis/Kind of Blue/So What",
                "{\"tags\":[\"" + "j".repeat(51) + "\"]}",
                "tags",
                "{\"tags\":[\"" + "j".repeat(50) + "\"]}"));
        rows.add(put(
                "tags not blank",
                "/songs/Miles Davis/Kind of Blue/So What",
                "{\"tags\":[\"jazz\",\" \"]}",
                "tags[1]",
                "{\"tags\":[\"jazz\",\" modal\"]}"));
        rows.add(get(
                "song artist at most 200 characters", "/songs/" + "a".repeat(201) + "/Kind of Blue/So What", "artist"));
        // posts
        rows.add(post(
                "post body not blank", "/posts", "{\"body\":\" \\n\\u3000\"}", "body", "{\"body\":\"Query first\"}"));
        rows.add(get("post id a timeuuid", "/posts/" + V4, "id"));
        rows.add(post("comment on a timeuuid post id", "/posts/" + V4 + "/comments", "{\"body\":\"hi\"}", "id", null));
        // ring
        rows.add(get("ring table a CQL name", "/ring/ring-probe/token", "table").withQuery("key", "name=x"));
        rows.add(get("ring key given", "/ring/leases/token", "key"));
        rows.add(get("ring key parts column=value", "/ring/leases/token", "key").withQuery("key", "x"));
        rows.add(get("ring key values without control characters", "/ring/leases/token", "key")
                .withQuery("key", "name=a\u0007b"));
        rows.add(get("ring key values at most 256 characters", "/ring/leases/token", "key")
                .withQuery("key", "name=" + "n".repeat(257)));
        return rows;
    }

    @TestFactory
    Stream<DynamicTest> service_and_contract_refuse_the_same_requests() {
        return rows().stream()
                .map(row -> DynamicTest.dynamicTest(row.name(), () -> {
                    Response answer = send(row);
                    assertThat(answer.statusCode())
                            .as("%s: the service's status (%s)", row.name(), answer.asString())
                            .isEqualTo(row.status());
                    assertThat(answer.asString())
                            .as("%s: the problem names the field", row.name())
                            .contains(row.field());

                    ValidationReport report = contract.validateRequest(request(row, row.body()));
                    assertThat(report.getMessages())
                            .as("%s: the contract refuses it too", row.name())
                            .filteredOn(message -> message.getLevel() == ValidationReport.Level.ERROR)
                            .anySatisfy(message -> assertThat(message.getKey()).startsWith("validation.request."))
                            .noneSatisfy(message -> assertThat(message.getKey())
                                    .isIn(
                                            "validation.request.path.missing",
                                            "validation.request.operation.notAllowed"));
                    if (row.validBody() != null) {
                        ValidationReport kept = contract.validateRequest(request(row, row.validBody()));
                        assertThat(kept.hasErrors())
                                .as("%s: within the limit the contract accepts it: %s", row.name(), kept.getMessages())
                                .isFalse();
                    }
                }));
    }

    @TestFactory
    Stream<DynamicTest> the_contract_accepts_what_the_service_accepts() {
        Row ring = new Row(
                        "a partition key as key=column=value",
                        Request.Method.GET,
                        "/ring/leases/token",
                        Map.of(),
                        Map.of(),
                        null,
                        200,
                        "",
                        null)
                .withQuery("key", "name=" + "n".repeat(256));
        Row post = post("a post", "/posts", "{\"body\":\"Query first\"}", "", null);
        return Stream.of(ring, post)
                .map(row -> DynamicTest.dynamicTest(row.name(), () -> {
                    ValidationReport report = contract.validateRequest(request(row, row.body()));
                    assertThat(report.hasErrors())
                            .as("%s", report.getMessages())
                            .isFalse();
                    assertThat(send(row).statusCode()).isEqualTo(row.method() == Request.Method.POST ? 201 : 200);
                }));
    }

    private static Response send(Row row) {
        RequestSpecification request = given().headers(row.headers()).queryParams(row.query());
        if (row.body() != null) {
            request = request.contentType("application/json").body(row.body());
        }
        return request.request(row.method().name(), row.path());
    }

    private static Request request(Row row, String body) {
        SimpleRequest.Builder builder = new SimpleRequest.Builder(row.method(), row.path());
        row.headers().forEach(builder::withHeader);
        row.query().forEach(builder::withQueryParam);
        if (body != null) {
            builder.withContentType("application/json").withBody(body);
        }
        return builder.build();
    }

    private static String createPaste() {
        return createdId(given().contentType("application/json")
                .body("{\"body\":\"x\",\"private\":true}")
                .post("/pastes"));
    }
}
