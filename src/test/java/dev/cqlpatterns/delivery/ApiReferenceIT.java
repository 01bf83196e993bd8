package dev.cqlpatterns.delivery;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.containsString;
import static org.hamcrest.Matchers.matchesPattern;
import static org.hamcrest.Matchers.not;

import dev.cqlpatterns.testsupport.PackagedService;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusIntegrationTest;
import io.quarkus.test.junit.TestProfile;
import io.restassured.RestAssured;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * The API reference page (Swagger UI at /q/swagger-ui/) of the packaged service, in a real
 * headless browser: Debian's Chromium (bin/chromium-install) driven by playwright-core
 * (src/test/browser/api-reference.mjs). The page authorizes with a token, runs GET /ring and
 * POST /pastes against the service and shows their live 200 and 201; every request the page makes
 * goes to the service and succeeds, and the page's inline scripts run only by the hashes its
 * Content-Security-Policy names. The screenshot is target/api-reference.png (README's picture).
 */
@QuarkusIntegrationTest
@TestProfile(PackagedServiceIT.Packaged.class)
class ApiReferenceIT {

    @Test
    void should_serve_the_page_under_a_policy_that_keeps_it_to_the_service() {
        given().when()
                .get("/q/swagger-ui/")
                .then()
                .statusCode(200)
                .contentType(containsString("text/html"))
                .header("Content-Security-Policy", containsString("default-src 'none'"))
                .header("Content-Security-Policy", containsString("connect-src 'self'"))
                .header("Content-Security-Policy", containsString("frame-ancestors 'none'"))
                .header("Content-Security-Policy", matchesPattern(".*script-src 'self'( 'sha256-[^']+')+;.*"))
                .body(containsString("/q/openapi"))
                .body(not(containsString("validator.swagger.io")));
    }

    @Test
    void should_try_the_api_from_the_page_in_a_browser() throws Exception {
        Path root = PackagedService.ROOT;
        Path screenshot = root.resolve("target/api-reference.png");
        Files.deleteIfExists(screenshot);
        String token = Tokens.bearer("alice").substring("Bearer ".length());
        Process node = new ProcessBuilder(
                        "node",
                        "src/test/browser/api-reference.mjs",
                        "http://localhost:" + RestAssured.port,
                        token,
                        screenshot.toString())
                .directory(root.toFile())
                .redirectErrorStream(true)
                .start();
        boolean ended = node.waitFor(2, TimeUnit.MINUTES);
        String output = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!ended) {
            node.destroyForcibly();
        }
        System.out.println("api reference in Chromium: " + output.strip());
        assertThat(ended)
                .as("the browser run ended within 2 minutes; output:%n%s", output)
                .isTrue();
        assertThat(node.exitValue()).as("the browser run; output:%n%s", output).isZero();
        assertThat(output).contains("\"ring\":200", "\"paste\":201");
        assertThat(screenshot).isNotEmptyFile();
    }
}
