package dev.cqlpatterns.contract;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.quarkus.test.junit.QuarkusTest;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The checked-in openapi.yaml is the contract: the build fails when what the service serves at
 * /q/openapi differs from it. After a deliberate API change, regenerate it with
 * {@code ./mvnw test -Dtest=OpenApiDriftTest -Dopenapi.write=true} and review the diff.
 */
@QuarkusTest
class OpenApiDriftTest {
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

    @Test
    void served_contract_should_equal_the_checked_in_openapi_yaml() throws Exception {
        String served = given().queryParam("format", "yaml")
                .when()
                .get("/q/openapi")
                .then()
                .statusCode(200)
                .extract()
                .asString();
        Path root = Path.of(System.getProperty("cqlpatterns.root", System.getProperty("user.dir")));
        Path checkedIn = root.resolve("openapi.yaml");
        Files.createDirectories(root.resolve("target"));
        Files.writeString(root.resolve("target/openapi-served.yaml"), served);
        if (Boolean.getBoolean("openapi.write")) {
            Files.writeString(checkedIn, served);
        }
        assertThat(checkedIn).as("openapi.yaml at the repository root").exists();
        JsonNode expected = YAML.readTree(Files.readString(checkedIn));
        JsonNode actual = YAML.readTree(served);
        assertThat(actual)
                .as("the served contract (target/openapi-served.yaml) differs from openapi.yaml; if the change is "
                        + "intended, run ./mvnw test -Dtest=OpenApiDriftTest -Dopenapi.write=true")
                .isEqualTo(expected);
    }
}
