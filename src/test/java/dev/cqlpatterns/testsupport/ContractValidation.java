package dev.cqlpatterns.testsupport;

import com.atlassian.oai.validator.OpenApiInteractionValidator;
import com.atlassian.oai.validator.restassured.OpenApiValidationFilter;
import com.atlassian.oai.validator.whitelist.StatusType;
import com.atlassian.oai.validator.whitelist.ValidationErrorsWhitelist;
import com.atlassian.oai.validator.whitelist.rule.WhitelistRule;
import com.atlassian.oai.validator.whitelist.rule.WhitelistRules;
import io.restassured.RestAssured;
import java.util.regex.Pattern;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every REST Assured request and response of every test is validated against the checked-in
 * openapi.yaml, error responses included: a response the contract does not describe fails the
 * test. Loaded for all test classes through JUnit's extension auto-detection.
 *
 * <p>Only routes that are deliberately outside the contract are exempt: Quarkus's management
 * routes (/q/...), the test-only probe routes, and the deliberately unknown route of the 404 test.
 */
public class ContractValidation implements BeforeAllCallback {
    private static boolean installed;

    /**
     * A @QuarkusTest class is loaded by Quarkus's class loader, and so is the RestAssured it calls;
     * this extension is loaded by JUnit's. The filter is therefore installed from a copy of this
     * class loaded by the test class's own loader, on that loader's RestAssured.
     */
    @Override
    public void beforeAll(ExtensionContext context) throws ReflectiveOperationException {
        ClassLoader testLoader = context.getRequiredTestClass().getClassLoader();
        Class<?> self = Class.forName(ContractValidation.class.getName(), true, testLoader);
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        // The parser finds its extensions through the context class loader: make it the one that
        // loaded the parser.
        thread.setContextClassLoader(testLoader);
        try {
            self.getDeclaredMethod("install").invoke(null);
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    public static synchronized void install() {
        if (installed) {
            return;
        }
        RestAssured.filters(new OpenApiValidationFilter(validator()));
        installed = true;
    }

    /**
     * The contract with no exemption: what the contract says, as strictly as the validator can read it.
     */
    public static OpenApiInteractionValidator strictValidator() {
        return OpenApiInteractionValidator.createForSpecificationUrl(CassandraTestResource.root()
                        .resolve("openapi.yaml")
                        .toUri()
                        .toString())
                .withBasePathOverride("/")
                .build();
    }

    /** The validator every test's calls go through. */
    public static OpenApiInteractionValidator validator() {
        return OpenApiInteractionValidator.createForSpecificationUrl(CassandraTestResource.root()
                        .resolve("openapi.yaml")
                        .toUri()
                        .toString())
                .withBasePathOverride("/")
                .withWhitelist(ValidationErrorsWhitelist.create()
                        .withRule("Quarkus management routes are not part of the API", requestPath("^/q/.*"))
                        .withRule("Test-only probe routes", requestPath("^/test-probe/.*"))
                        .withRule("The unknown route of the 404 test", requestPath("^/no-such-route$"))
                        // Tests of bad input send requests the contract forbids on purpose; what
                        // matters is that the answer is a 4xx the contract describes, which is
                        // still validated.
                        .withRule(
                                "Deliberately invalid requests to routes of the contract, answered with a 4xx",
                                invalidRequestAnsweredWith4xx()))
                .build();
    }

    /**
     * Matches the path that was called. WhitelistRules.pathContainsRegexp matches the contract's
     * path of the operation instead, and a route outside the contract has none.
     */
    /** A request error other than calling a route or method the contract does not have. */
    private static WhitelistRule invalidRequestAnsweredWith4xx() {
        WhitelistRule clientError = WhitelistRules.responseStatusTypeIs(StatusType.CLIENT_ERROR);
        return (message, operation, request, response) -> message.getKey().startsWith("validation.request.")
                && !message.getKey().equals("validation.request.path.missing")
                && !message.getKey().equals("validation.request.operation.notAllowed")
                && clientError.matches(message, operation, request, response);
    }

    private static WhitelistRule requestPath(String regex) {
        Pattern pattern = Pattern.compile(regex);
        return (message, operation, request, response) ->
                request != null && pattern.matcher(request.getPath()).find();
    }
}
