package dev.cqlpatterns.observability;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.SignUp;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import org.jboss.logmanager.ExtLogRecord;
import org.jboss.logmanager.LogManager;
import org.jboss.logmanager.formatters.PatternFormatter;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * No log line, the access log included, carries a bearer token, a paste's secret or a paste's
 * body: every record the root logger sees while such requests are served is formatted (message,
 * exception, MDC) and searched.
 */
@QuarkusTest
class LogSecretsTest {
    private static final String ACCESS_LOG = "io.quarkus.http.access-log";
    private final List<String> lines = new ArrayList<>();
    private final List<String> accessLines = new ArrayList<>();
    private final PatternFormatter format = new PatternFormatter("%c %p %s%e %X");
    private final Handler capture = new Handler() {
        @Override
        public void publish(LogRecord record) {
            String line = format.format(ExtLogRecord.wrap(record));
            synchronized (lines) {
                lines.add(line);
                if (record.getLoggerName() != null && record.getLoggerName().startsWith(ACCESS_LOG)) {
                    accessLines.add(line);
                }
            }
        }

        @Override
        public void flush() {}

        @Override
        public void close() {}
    };

    @BeforeEach
    void capture() {
        capture.setLevel(Level.ALL);
        LogManager.getLogManager().getLogger("").addHandler(capture);
    }

    @AfterEach
    void release() {
        LogManager.getLogManager().getLogger("").removeHandler(capture);
    }

    @Test
    void should_log_no_token_paste_secret_or_paste_body() throws Exception {
        String user = SignUp.user("logs-" + UUID.randomUUID().toString().substring(0, 8));
        String bearer = Tokens.bearer(user);
        String token = bearer.substring("Bearer ".length());
        String body = "SECRET-BODY-" + UUID.randomUUID();
        String changed = "SECRET-CHANGE-" + UUID.randomUUID();
        String wrongSecret = ("WRONG-SECRET-" + UUID.randomUUID().toString().replace("-", "")).substring(0, 43);
        String forgedToken = "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJtYWxsb3J5In0.FORGED"
                + UUID.randomUUID().toString().replace("-", "");

        given().header("Authorization", bearer).when().get("/inbox").then().statusCode(200);
        given().header("Authorization", "Bearer " + forgedToken)
                .when()
                .get("/inbox")
                .then()
                .statusCode(401);
        given().header("Authorization", bearer)
                .queryParam("email", user + "@example.com")
                .when()
                .get("/users")
                .then()
                .statusCode(200);
        var created = given().contentType(ContentType.JSON)
                .body(Map.of("title", "logs", "body", body, "private", true))
                .when()
                .post("/pastes")
                .then()
                .statusCode(201)
                .extract();
        String id = created.path("id");
        String secret = created.path("secret");
        given().header("X-Paste-Secret", wrongSecret)
                .contentType(ContentType.JSON)
                .body(Map.of("body", changed))
                .when()
                .put("/pastes/" + id)
                .then()
                .statusCode(403);
        given().header("X-Paste-Secret", secret)
                .contentType(ContentType.JSON)
                .body(Map.of("body", changed))
                .when()
                .put("/pastes/" + id)
                .then()
                .statusCode(200);
        given().contentType(ContentType.JSON)
                .body("{\"title\":\"x\",\"body\":\"" + body + "\",\"body\":1}")
                .when()
                .post("/pastes")
                .then()
                .statusCode(400);
        given().header("X-Paste-Secret", secret)
                .when()
                .delete("/pastes/" + id)
                .then()
                .statusCode(204);

        List<String> seen;
        for (int i = 0; i < 50; i++) {
            synchronized (lines) {
                if (accessLines.size() >= 8) {
                    break;
                }
            }
            Thread.sleep(100);
        }
        synchronized (lines) {
            seen = List.copyOf(lines);
            assertThat(accessLines)
                    .as("the access log is captured")
                    .hasSizeGreaterThanOrEqualTo(8)
                    .allSatisfy(line -> assertThat(line).contains("request=").containsPattern("traceId=[0-9a-f]{32}"))
                    .noneSatisfy(line -> assertThat(line).contains("@example.com"));
        }
        for (String secretText : List.of(token, forgedToken, body, changed, secret, wrongSecret)) {
            assertThat(seen)
                    .as("log lines")
                    .noneSatisfy(line -> assertThat(line).contains(secretText));
        }
    }
}
