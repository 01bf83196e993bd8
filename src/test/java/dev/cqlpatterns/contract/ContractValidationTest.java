package dev.cqlpatterns.contract;

import static org.assertj.core.api.Assertions.assertThat;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.model.Request;
import com.atlassian.oai.validator.model.SimpleRequest;
import com.atlassian.oai.validator.model.SimpleResponse;
import dev.cqlpatterns.platform.errors.Problem;
import dev.cqlpatterns.testsupport.ContractValidation;
import org.junit.jupiter.api.Test;

/** The contract validator that every REST Assured call passes through does reject what the contract does not allow. */
class ContractValidationTest {
    private final OpenApiInteractionValidator validator = ContractValidation.validator();

    @Test
    void should_reject_a_route_the_contract_does_not_have() {
        var report =
                validator.validateRequest(SimpleRequest.Builder.get("/rings").build());
        assertThat(report.hasErrors()).isTrue();
    }

    @Test
    void should_let_management_routes_outside_the_contract_through() {
        var report = validator.validateRequest(
                SimpleRequest.Builder.get("/q/health/live").build());
        assertThat(report.hasErrors()).isFalse();
    }

    @Test
    void should_reject_a_response_body_of_the_wrong_shape() {
        var report = validator.validateResponse(
                "/ring",
                Request.Method.GET,
                SimpleResponse.Builder.ok()
                        .withContentType("application/json")
                        .withBody("{\"nodes\": \"not a list\"}")
                        .build());
        assertThat(report.hasErrors()).isTrue();
    }

    @Test
    void should_reject_an_error_that_is_not_a_problem() {
        var report = validator.validateResponse(
                "/ring/{table}/token",
                Request.Method.GET,
                SimpleResponse.Builder.status(404)
                        .withContentType("text/html")
                        .withBody("<h1>Not found</h1>")
                        .build());
        assertThat(report.hasErrors()).isTrue();
    }

    @Test
    void should_reject_a_status_the_contract_does_not_list() {
        var report = validator.validateResponse(
                "/ring",
                Request.Method.GET,
                SimpleResponse.Builder.status(418)
                        .withContentType(Problem.MEDIA_TYPE)
                        .withBody("{\"type\":\"x\",\"title\":\"t\",\"status\":418}")
                        .build());
        assertThat(report.hasErrors()).isTrue();
    }

    @Test
    void should_accept_a_problem_the_contract_lists() {
        var report = validator.validateResponse(
                "/ring/{table}/token",
                Request.Method.GET,
                SimpleResponse.Builder.status(404)
                        .withContentType(Problem.MEDIA_TYPE)
                        .withHeader("X-Request-Id", "4bf92f3577b34da6a3ce929d0e0e4736")
                        .withBody(
                                "{\"type\":\"urn:cql-patterns:problem:not-found\",\"title\":\"Not found\",\"status\":404}")
                        .build());
        assertThat(report.getMessages()).isEmpty();
    }
}
