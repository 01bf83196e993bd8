package dev.cqlpatterns.platform;

import static dev.cqlpatterns.testsupport.Responses.createdId;
import static dev.cqlpatterns.testsupport.Responses.problem;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;
import static org.hamcrest.Matchers.equalTo;
import static org.hamcrest.Matchers.hasItem;
import static org.hamcrest.Matchers.not;

import dev.cqlpatterns.platform.identity.VerifiedTokens;
import dev.cqlpatterns.testsupport.SignUp;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.http.ContentType;
import io.smallrye.jwt.build.Jwt;
import io.smallrye.jwt.build.JwtClaimsBuilder;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Who a token makes the caller: its subject, only when the subject is a username, only when the
 * token is for this service (issuer, audience) and short-lived. Everything else is 401.
 */
@QuarkusTest
class IdentityTest {
    @Inject
    VerifiedTokens verifiedTokens;

    private static JwtClaimsBuilder valid(String subject) {
        return Jwt.issuer(Tokens.ISSUER)
                .audience(Tokens.AUDIENCE)
                .subject(subject)
                .expiresIn(Duration.ofMinutes(10));
    }

    private static String someone() {
        return "id" + UUID.randomUUID().toString().substring(0, 8);
    }

    @Test
    void should_act_as_the_subject_whatever_upn_or_preferred_username_say() {
        String alice = SignUp.user(someone());
        String bob = SignUp.user(someone());
        String carol = SignUp.user(someone());
        String token = Tokens.signed(valid(alice).upn(bob).preferredUserName(bob));
        String id = createdId(given().header("Authorization", token)
                .contentType(ContentType.JSON)
                .body(Map.of("members", List.of(carol)))
                .when()
                .post("/conversations"));
        given().header("Authorization", Tokens.bearer(carol))
                .when()
                .get("/conversations/{id}", id)
                .then()
                .statusCode(200)
                .body("members", hasItem(alice))
                .body("members", not(hasItem(bob)));
        // bob himself is no member of it
        given().header("Authorization", Tokens.bearer(bob))
                .when()
                .get("/conversations/{id}", id)
                .then()
                .statusCode(404);
    }

    @ParameterizedTest
    @ValueSource(strings = {"ADMIN", "a b", "../x", "", "ab", "alice\u0000", "ａｌｉｃｅ"})
    void should_refuse_a_signed_token_whose_subject_is_no_username(String subject) {
        assertUnauthorized(Tokens.signed(valid(subject)));
    }

    @Test
    void should_refuse_a_token_for_another_audience_or_none() {
        assertUnauthorized(Tokens.signed(Jwt.issuer(Tokens.ISSUER)
                .audience("another-service")
                .subject(someone())
                .expiresIn(Duration.ofMinutes(10))));
        assertUnauthorized(
                Tokens.signed(Jwt.issuer(Tokens.ISSUER).subject(someone()).expiresIn(Duration.ofMinutes(10))));
    }

    @Test
    void should_refuse_a_token_of_another_issuer() {
        assertUnauthorized(Tokens.signed(Jwt.issuer("someone-else")
                .audience(Tokens.AUDIENCE)
                .subject(someone())
                .expiresIn(Duration.ofMinutes(10))));
    }

    @Test
    void should_refuse_a_long_lived_or_old_token() {
        Instant now = Instant.now();
        // valid for a day: longer than the service takes
        assertUnauthorized(Tokens.signed(valid(someone()).issuedAt(now).expiresAt(now.plus(Duration.ofDays(1)))));
        // issued two hours ago, not yet expired
        assertUnauthorized(Tokens.signed(
                valid(someone()).issuedAt(now.minus(Duration.ofHours(2))).expiresAt(now.plus(Duration.ofMinutes(5)))));
    }

    /**
     * A token issued in the future (iat beyond the allowed clock skew, 60 s) is refused: with it a
     * stolen token would outlive mp.jwt.verify.token.age. One within the skew is taken.
     */
    @Test
    void should_refuse_a_token_issued_in_the_future() {
        Instant now = Instant.now();
        assertUnauthorized(Tokens.signed(valid(someone())
                .issuedAt(now.plus(Duration.ofHours(1)))
                .expiresAt(now.plus(Duration.ofHours(1)).plus(Duration.ofMinutes(10)))));
        assertUnauthorized(Tokens.signed(valid(someone())
                .issuedAt(now.plus(Duration.ofMinutes(2)))
                .expiresAt(now.plus(Duration.ofMinutes(12)))));
        given().header(
                        "Authorization",
                        Tokens.signed(valid(someone())
                                .issuedAt(now.plus(Duration.ofSeconds(20)))
                                .expiresAt(now.plus(Duration.ofMinutes(10)))))
                .when()
                .get("/inbox")
                .then()
                .statusCode(200);
    }

    @Test
    void should_accept_a_short_lived_token_for_this_service() {
        given().header("Authorization", Tokens.signed(valid(someone())))
                .when()
                .get("/inbox")
                .then()
                .statusCode(200);
    }

    @Test
    void should_reuse_a_verified_token_and_never_a_refused_one() {
        String token = Tokens.signed(valid(someone()));
        given().header("Authorization", token).when().get("/inbox").then().statusCode(200);
        assertThat(verifiedTokens.remembers(token.substring("Bearer ".length())))
                .isTrue();
        String foreign = Tokens.signed(Jwt.issuer("someone-else")
                .audience(Tokens.AUDIENCE)
                .subject(someone())
                .expiresIn(Duration.ofMinutes(10)));
        assertUnauthorized(foreign);
        assertThat(verifiedTokens.remembers(foreign.substring("Bearer ".length())))
                .isFalse();
    }

    private static void assertUnauthorized(String token) {
        problem(given().header("Authorization", token).when().get("/inbox"), 401)
                .body("status", equalTo(401));
    }
}
