package dev.cqlpatterns.contract;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.atlassian.oai.validator.restassured.OpenApiValidationFilter;
import io.quarkus.test.junit.QuarkusTest;
import org.junit.jupiter.api.Test;

/** Inside a @QuarkusTest, the REST Assured calls of tests really go through the contract validator. */
@QuarkusTest
class ContractFilterAppliesTest {

    @Test
    void should_fail_a_call_to_a_route_the_contract_does_not_have() {
        assertThatThrownBy(() -> given().when().get("/rings").then().statusCode(404))
                .isInstanceOf(OpenApiValidationFilter.OpenApiValidationException.class)
                .hasMessageContaining("validation.request.path.missing");
    }
}
