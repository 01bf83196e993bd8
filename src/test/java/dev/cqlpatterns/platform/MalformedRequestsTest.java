package dev.cqlpatterns.platform;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cqlpatterns.testsupport.Tokens;
import dev.cqlpatterns.testsupport.fuzz.ApiContract;
import dev.cqlpatterns.testsupport.fuzz.ApiContract.Operation;
import dev.cqlpatterns.testsupport.fuzz.FuzzRequest;
import dev.cqlpatterns.testsupport.fuzz.MalformedRequests;
import dev.cqlpatterns.testsupport.fuzz.Targets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Properties of FuzzTest's generators, run by jqwik's own engine (no application needed): every
 * operation of the contract gets requests, each with a fault, that stay under the limits Vert.x
 * enforces without problem+json (4 KiB request line, 8 KiB headers) and that are one request each
 * (no CR or LF a server could read as the end of a line).
 */
class MalformedRequestsTest {
    private static final List<Operation> OPERATIONS = ApiContract.read(
                    Path.of(System.getProperty("cqlpatterns.root", System.getProperty("user.dir")))
                            .resolve("openapi.yaml"))
            .operations();
    private static final String UUID_VALUE = "5d1f0c36-0b89-4c6b-9b0e-6f8a3f0d2f4e";
    private static final Targets TARGETS = new Targets(
            Map.ofEntries(
                    Map.entry("id", UUID_VALUE),
                    Map.entry("posts.id", "post-1"),
                    Map.entry("username", "alice"),
                    Map.entry("courseId", "node-intro"),
                    Map.entry("moduleId", "1"),
                    Map.entry("group", "g1"),
                    Map.entry("kind", "home"),
                    Map.entry("table", "songs"),
                    Map.entry("artist", "Miles Davis"),
                    Map.entry("album", "Kind of Blue"),
                    Map.entry("song", "So What"),
                    Map.entry("tag", "jazz")),
            Map.of("sender", "alice", "tag", "jazz", "email", "alice@example.com"),
            Map.of("X-Paste-Secret", "q9V3mJf0yZ2cXo6gN1rTt8bE4sW7aD5kL0pHuQxRiMc"),
            List.of(new Targets.Cursor("/pastes", "eyJ0IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA")),
            Tokens.bearer("alice"),
            Tokens.bearer("bob"));

    @Provide
    Arbitrary<FuzzRequest> requests() {
        return Arbitraries.of(OPERATIONS).flatMap(op -> MalformedRequests.forOperation(op, TARGETS));
    }

    @Property(tries = 2_000, seed = "13")
    void requests_stay_under_the_limits_below_the_application(@ForAll("requests") FuzzRequest request) {
        assertThat(request.requestLineLength()).as(request.show()).isLessThan(4_096);
        assertThat(request.headersLength()).as(request.show()).isLessThan(8_192);
    }

    @Property(tries = 2_000, seed = "13")
    void requests_are_one_request_each_with_a_fault(@ForAll("requests") FuzzRequest request) {
        assertThat(request.target()).doesNotContain("\r", "\n", " ");
        request.headers().forEach(h -> {
            assertThat(new String(h.value(), java.nio.charset.StandardCharsets.ISO_8859_1))
                    .doesNotContain("\r", "\n");
            assertThat(h.name()).matches("[A-Za-z-]+");
        });
        // the caller, then at least one fault
        assertThat(request.mutations()).hasSizeGreaterThan(1);
    }

    @Example
    void every_operation_of_the_contract_gets_requests() {
        assertThat(OPERATIONS).hasSizeGreaterThan(40);
        for (Operation operation : OPERATIONS) {
            FuzzRequest request =
                    MalformedRequests.forOperation(operation, TARGETS).sample();
            assertThat(request.operation()).isEqualTo(operation.id());
            assertThat(request.method()).isEqualTo(operation.method());
        }
    }
}
