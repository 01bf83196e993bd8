package dev.cqlpatterns.groups;

import static dev.cqlpatterns.groups.GroupMembersTest.createUser;
import static dev.cqlpatterns.groups.GroupMembersTest.join;
import static dev.cqlpatterns.groups.GroupMembersTest.unique;
import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.StoredRows;
import dev.cqlpatterns.testsupport.Tokens;
import io.quarkus.test.junit.QuarkusTest;
import io.restassured.RestAssured;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 13, privacy (OWASP API3): group lists name members and their join times, never a member's
 * email or age, whoever reads them (a member, a stranger), and those fields are no longer copied
 * into the group tables at all.
 */
@QuarkusTest
class MemberPrivacyTest {

    @Inject
    StoredRows stored;

    @BeforeAll
    static void logFailures() {
        RestAssured.enableLoggingOfRequestAndResponseIfValidationFails();
    }

    static Response read(String caller, String path, String group) {
        return given().header("Authorization", Tokens.bearer(caller)).when().get(path, group);
    }

    /** Every item of the list, as a map of its fields. */
    static List<Map<String, Object>> items(Response list) {
        list.then().statusCode(200);
        return list.jsonPath().getList("items");
    }

    @Test
    void should_hide_members_email_and_age_from_strangers_and_members_alike() {
        String group = unique("private-");
        String rosa = unique("rosa");
        String sven = unique("sven");
        createUser(rosa, 33);
        createUser(sven, 61);
        join(rosa, group, rosa).then().statusCode(201);
        join(sven, group, sven).then().statusCode(201);

        for (String reader : List.of("stranger", rosa)) {
            for (String path : List.of("/groups/{g}/members", "/groups/{g}/members/latest")) {
                List<Map<String, Object>> items = items(read(reader, path, group));
                assertThat(items).extracting(item -> item.get("username")).containsExactlyInAnyOrder(rosa, sven);
                assertThat(items)
                        .as("%s read by %s", path, reader)
                        .allSatisfy(item -> assertThat(item).containsOnlyKeys("username", "joinedAt"));
            }
        }
    }

    @Test
    void should_answer_a_join_without_private_fields_and_store_none() {
        String group = unique("private-");
        String tom = unique("tom");
        createUser(tom, 47);
        Map<String, Object> joined = join(tom, group, tom)
                .then()
                .statusCode(201)
                .extract()
                .jsonPath()
                .getMap("");
        assertThat(joined).containsOnlyKeys("username", "joinedAt");

        // The copies are gone from the tables themselves, not only from the answers.
        for (String table : List.of("group_members", "group_join_dates")) {
            assertThat(stored.columns(table)).as(table).contains("username").doesNotContain("email", "age");
        }
    }

    @Test
    void should_keep_group_lists_free_of_private_fields_after_an_email_change() {
        String group = unique("private-");
        String uli = unique("uli");
        createUser(uli, 41);
        join(uli, group, uli).then().statusCode(201);
        given().header("Authorization", Tokens.bearer(uli))
                .contentType(ContentType.JSON)
                .body(Map.of("email", uli + "@new.example.com"))
                .when()
                .put("/users/{u}/email", uli)
                .then()
                .statusCode(200);

        for (String path : List.of("/groups/{g}/members", "/groups/{g}/members/latest")) {
            List<Map<String, Object>> items = items(read("stranger", path, group));
            assertThat(items).hasSize(1);
            assertThat(items.get(0)).containsOnlyKeys("username", "joinedAt").containsEntry("username", uli);
        }
    }
}
