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
    private static final String PNG = "https://example.com/a.png";
    private static final String SONG = "/songs/Miles Davis/Kind of Blue/So What";
    private static final String SECRET = "X-Paste-Secret";
    private static final String TITLE = "{\"title\":\"t\"}";

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

        Row withStatus(int answered) {
            return new Row(name, method, path, query, headers, body, answered, field, validBody);
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

    /** A sign-up whose {@code field} is {@code bad}, and the same with {@code good}; the other field valid. */
    private static Row userRow(String name, String field, String bad, String good) {
        return post(name, "/users", signUp(field, bad), field, signUp(field, good));
    }

    private static String signUp(String field, String value) {
        return field.equals("username")
                ? "{\"username\":\"" + value + "\",\"email\":\"a@example.com\"}"
                : "{\"username\":\"" + USER + "\",\"email\":\"" + value + "\"}";
    }

    /** The caller's home address with {@code part} replaced by {@code bad}, refused for {@code field}. */
    private static Row addressRow(String name, String part, String bad, String field) {
        return put(name, "/users/" + USER + "/addresses/home", ADDRESS.replace(part, bad), field, ADDRESS);
    }

    /** A course or module ({@code under} the course) named {@code bad}, and the same named {@code good} (null: none). */
    private static Row courseRow(String name, String under, String bad, String field, String good) {
        return put(name, "/courses/contract-course" + under, named(bad), field, good == null ? null : named(good));
    }

    private static String named(String value) {
        return "{\"name\":\"" + value + "\"}";
    }

    /** A message with {@code count} attachments at {@code url}, refused, and {@code validCount} at {@code validUrl}. */
    private static Row attachmentsRow(
            String name, String conversation, int count, String url, int validCount, String validUrl) {
        return post(
                name,
                conversation,
                message("\"hi\"", count, url),
                "attachments",
                message("\"hi\"", validCount, validUrl));
    }

    /** A new paste whose body is {@code bad}, and the same whose body is {@code good}. */
    private static Row pasteBodyRow(String name, String bad, String good) {
        return post(name, "/pastes", paste(null, quoted(bad), null), "body", paste(null, quoted(good), null));
    }

    /** A new paste expiring in {@code bad}, and the same expiring in {@code good}. */
    private static Row expiresInRow(String name, String bad, String good) {
        return post(
                name, "/pastes", paste(null, "\"x\"", quoted(bad)), "expiresIn", paste(null, "\"x\"", quoted(good)));
    }

    /** An update of paste {@code pasteId}, without a caller, refused for {@code field}. */
    private static Row pasteUpdateRow(String name, String pasteId, String body, String field, String validBody) {
        return new Row(name, Request.Method.PUT, "/pastes/" + pasteId, Map.of(), Map.of(), body, 400, field, validBody);
    }

    /** A click on {@code url}, and the same on {@code validUrl}. */
    private static Row clickRow(String name, String url, String validUrl) {
        return post(name, "/clicks", click(url, null), "url", click(validUrl, null));
    }

    /** A click from {@code ip}, and the same from {@code validIp}. */
    private static Row ipRow(String name, String ip, String validIp) {
        return post(name, "/clicks", click(PNG, ip), "ip", click(PNG, validIp));
    }

    private static String click(String url, String ip) {
        return "{\"url\":" + quoted(url) + (ip == null ? "" : ",\"ip\":" + quoted(ip)) + "}";
    }

    /** The song's tags {@code tags} (JSON strings), refused for {@code field}, and the same as {@code validTags}. */
    private static Row tagsRow(String name, String field, String tags, String validTags) {
        return put(name, SONG, "{\"tags\":[" + tags + "]}", field, "{\"tags\":[" + validTags + "]}");
    }

    private static String quoted(String value) {
        return "\"" + value + "\"";
    }

    private List<Row> rows() {
        String conversation = "/conversations/" + UUID.randomUUID() + "/messages";
        String pasteId = createPaste();
        List<Row> rows = new ArrayList<>();
        // users: usernames, emails and address kinds match the whole value
        rows.add(userRow("username matched as a whole", "username", "alice smith", "alice_smith"));
        rows.add(userRow("email matched as a whole", "email", "a b@example.com", "ab@example.com"));
        rows.add(put("address kind matched as a whole", "/users/" + USER + "/addresses/Home", ADDRESS, "kind", null));
        rows.add(addressRow("street not blank", "1 Main Street", "   ", "street"));
        rows.add(addressRow("city one line", "Springfield", "Spring\\tfield", "city"));
        rows.add(put("group name matched as a whole", "/groups/Lunch Club/members/" + USER, null, "group", null));
        // courses
        rows.add(courseRow("course name not blank", "", " ", "name", "Contracts"));
        rows.add(courseRow("module id at most 1000", "/modules/1001", "ab", "moduleId", null));
        rows.add(courseRow("module name one line", "/modules/1", "a\\u0001b", "name", "ab"));
        // messenger
        rows.add(post(
                "message content not blank",
                conversation,
                message("\" \\n \"", 0, ""),
                "content",
                message("\"hi\"", 0, "")));
        rows.add(attachmentsRow("at most 10 attachments", conversation, 11, PNG, 10, PNG));
        rows.add(attachmentsRow("attachments are http(s) URLs", conversation, 1, "ftp://example.com/a.png", 1, PNG));
        rows.add(attachmentsRow(
                "attachment URLs are absolute", conversation, 1, "/a.png", 1, "http://example.com/a.png"));
        // pastebin
        rows.add(pasteBodyRow("paste body not empty", "", "x"));
        rows.add(pasteBodyRow("paste body at most 512 KiB", "a".repeat(512 * 1024 + 1), "a".repeat(512 * 1024))
                .withStatus(413));
        rows.add(expiresInRow("expiresIn an ISO-8601 duration", "7 days", "P7D"));
        rows.add(expiresInRow("expiresIn positive", "-PT1H", "PT1H"));
        rows.add(expiresInRow("expiresIn not zero", "P0D", "P1D"));
        rows.add(post(
                "paste title one line",
                "/pastes",
                paste("\"a\\u0007b\"", "\"x\"", null),
                "title",
                paste("\"ab\"", "\"x\"", null)));
        rows.add(pasteUpdateRow("update changes something", pasteId, "{}", "change", TITLE)
                .withHeader(SECRET, WRONG_SECRET));
        rows.add(pasteUpdateRow(
                        "update expiresIn a duration",
                        pasteId,
                        "{\"expiresIn\":\"P1X\"}",
                        "expiresIn",
                        "{\"expiresIn\":\"P1D\"}")
                .withHeader(SECRET, WRONG_SECRET));
        rows.add(expiresInRow(
                "expiresIn at most 32 characters", "PT" + "0".repeat(31) + "1H", "PT" + "0".repeat(28) + "1H"));
        rows.add(pasteUpdateRow("X-Paste-Secret shaped as a secret", pasteId, TITLE, SECRET, null)
                .withHeader(SECRET, "wrong"));
        rows.add(pasteUpdateRow("X-Paste-Secret required to update", pasteId, TITLE, SECRET, null)
                .withStatus(403));
        rows.add(new Row(
                "X-Paste-Secret required to delete",
                Request.Method.DELETE,
                "/pastes/" + pasteId,
                Map.of(),
                Map.of(),
                null,
                403,
                SECRET,
                null));
        // clickstream
        rows.add(clickRow("click url absolute", "/signup", "https://example.com/signup"));
        rows.add(clickRow("click url http(s)", "javascript:alert(1)", "HTTP://example.com"));
        rows.add(ipRow("click ip a literal address, not a name", "example.com", "2001:db8::1"));
        rows.add(ipRow("click ip an IPv6 address, not only a colon", ":", "::"));
        rows.add(ipRow("click ip a real IPv4 address", "1.2.3.256", "1.2.3.255"));
        // songs
        rows.add(tagsRow("tags at most 50 characters", "tags", quoted("j".repeat(51)), quoted("j".repeat(50))));
        rows.add(tagsRow("tags not blank", "tags[1]", "\"jazz\",\" \"", "\"jazz\",\" modal\""));
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
