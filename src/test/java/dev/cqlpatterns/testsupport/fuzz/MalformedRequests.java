package dev.cqlpatterns.testsupport.fuzz;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.cqlpatterns.testsupport.fuzz.ApiContract.Operation;
import dev.cqlpatterns.testsupport.fuzz.ApiContract.Param;
import dev.cqlpatterns.testsupport.fuzz.FuzzRequest.Header;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;
import net.jqwik.api.Tuple.Tuple2;

/**
 * jqwik generators of requests that the contract (openapi.yaml) says are wrong, for any operation:
 * a valid request aimed at the {@link Targets} with one to three faults in it, each fault alone
 * enough to make it invalid (so every answer must be a refusal), from:
 * <ul>
 * <li>path, query and header parameters: out of the parameter's pattern or format, over its length,
 * NUL and other control characters, percent-escapes that are not escapes or not UTF-8 ({@code %FF},
 * overlong {@code %C0%AF}, a surrogate {@code %ED%A0%80}), raw non-ASCII in the request line, ids and
 * numbers in fullwidth, Arabic-Indic or Devanagari digits, numbers out of range or not integers,
 * cursors that are random, truncated, altered or another list's, a required parameter left out;</li>
 * <li>JSON bodies: each field of the schema of the wrong type (number, boolean, object, array, null,
 * 1e308, integers past int64), over its length, out of its pattern, holding a lone surrogate escape
 * or, in a one-line field, NUL; a required field missing, an unknown one, a duplicate key, trailing
 * garbage, two documents, 2,000 levels of nesting, overlong or invalid UTF-8 bytes, an empty body,
 * and JSON that is not an object;</li>
 * <li>Content-Type wrong or missing, an Accept without JSON, an Idempotency-Key or paste secret that
 * is wrong, empty, too long or not visible ASCII, and for the routes that need one, a bearer token
 * that is missing, garbage or tampered with.</li>
 * </ul>
 * Requests stay inside the HTTP limits the server enforces below the application, which answer
 * without problem+json: a request line under 4 KiB (Vert.x answers a longer one with a bare 414) and
 * headers under 8 KiB (a bare 431). Long values are therefore at most 3,000 characters in the URL
 * and 5,000 in a header. Two kinds of fault are refused below the application too, and are still
 * sent (flagged {@link FuzzRequest#belowApplication()}): a request-target that {@code java.net.URI}
 * cannot parse (broken percent-escapes such as {@code %G1} or a lone {@code %}, raw non-ASCII),
 * which Quarkus's HTTP root handler answers with a bare 400 before any route (only the JVM flag
 * {@code -Dvertx.disableURIValidation=true} turns that off), and control characters in a header
 * value, which Netty's decoder refuses (Vert.x's default invalid-request handler, a bare 400 that
 * Quarkus gives no hook for).
 */
public final class MalformedRequests {
    /** The longest value put in a URL: with the rest of the request line it stays under 4 KiB. */
    public static final int MAX_URL_VALUE = 3_000;
    /** The longest header value: with the others it stays under 8 KiB. */
    public static final int MAX_HEADER_VALUE = 5_000;

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;
    private static final String MARK = "\u0001FUZZ-BYTES\u0001";

    private final Operation operation;
    private final Targets targets;

    /**
     * One fault: what it does in words and the change it makes; {@code belowApplication} when the
     * HTTP stack refuses it before any route (see {@link FuzzRequest#belowApplication()}).
     */
    private record Fault(String description, UnaryOperator<Draft> apply, boolean belowApplication) {
        Fault(String description, UnaryOperator<Draft> apply) {
            this(description, apply, false);
        }

        Fault below() {
            return new Fault(description, apply, true);
        }
    }

    private MalformedRequests(Operation operation, Targets targets) {
        this.operation = operation;
        this.targets = targets;
    }

    /** Requests for {@code operation}, each with at least one fault. */
    public static Arbitrary<FuzzRequest> forOperation(Operation operation, Targets targets) {
        return new MalformedRequests(operation, targets).arbitrary();
    }

    private Arbitrary<FuzzRequest> arbitrary() {
        Arbitrary<Fault> fault = Arbitraries.frequencyOf(faults());
        return Combinators.combine(
                        fault.list().ofMinSize(1).ofMaxSize(2),
                        caller(),
                        noise().list().ofMaxSize(2))
                .as((faults, caller, noise) -> {
                    Draft draft = valid();
                    draft = caller.apply.apply(draft);
                    List<String> described = new ArrayList<>();
                    described.add(caller.description);
                    boolean below = caller.belowApplication;
                    for (Fault n : noise) {
                        draft = n.apply.apply(draft);
                        described.add(n.description);
                    }
                    for (Fault f : faults) {
                        draft = f.apply.apply(draft);
                        described.add(f.description);
                        below |= f.belowApplication;
                    }
                    return draft.build(described, below);
                });
    }

    /**
     * Malformed values of headers the service reads (traceparent is dropped when it does not parse,
     * X-Forwarded-For is not trusted, an Origin that is not allowed is a 403, a second Content-Type
     * or X-Paste-Secret a 4xx): added beside a request's faults, never instead of one, so the answer
     * is still a 4xx problem, and a header that breaks anything on its way shows as a 5xx.
     */
    private Arbitrary<Fault> noise() {
        List<Fault> noise = new ArrayList<>();
        for (String name : List.of("traceparent", "X-Forwarded-For", "Origin", "Content-Type", "X-Paste-Secret")) {
            for (String value : MALFORMED_VALUES) {
                noise.add(new Fault("noise " + name + ": " + shortly(value), d -> d.extraHeader(name, value)));
            }
        }
        noise.add(new Fault(
                "noise traceparent of the wrong version",
                d -> d.extraHeader("traceparent", "ff-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")));
        noise.add(new Fault(
                "noise X-Forwarded-For of many hops",
                d -> d.extraHeader(
                        "X-Forwarded-For", String.join(", ", java.util.Collections.nCopies(40, "203.0.113.7")))));
        return Arbitraries.of(noise);
    }

    /** Header values that are no value of any header the service reads. */
    public static final List<String> MALFORMED_VALUES =
            List.of(";;;", ",,,", "=", "\"", "a/b/c", "%zz", "[::1", "-1", "x".repeat(500), "\u00e9t\u00e9", "null");

    /** Accept values that are no list of media ranges (RFC 9110, 12.5.1): a 400 naming Accept. */
    public static final List<String> MALFORMED_ACCEPT = List.of(
            ";;;",
            ";",
            "application",
            "application/",
            "/json",
            "*/json",
            "application/json;q=abc",
            "application/json;q=2",
            "application/json;q=",
            "application/json; charset=\"open",
            "a/b/c",
            "application/json, ;;",
            "text/html;=x",
            "application/json;q=0.5;q",
            "\u00e9/json",
            ",",
            " , ,");

    /** Who calls: mostly the targets' owner, so the fault is what gets refused; sometimes someone else. */
    private Arbitrary<Fault> caller() {
        return Arbitraries.frequencyOf(
                Tuple.of(
                        7,
                        Arbitraries.just(
                                new Fault("owner's token", d -> d.header("Authorization", targets.ownerToken())))),
                Tuple.of(
                        1,
                        Arbitraries.just(new Fault(
                                "another user's token", d -> d.header("Authorization", targets.otherToken())))),
                Tuple.of(1, Arbitraries.just(new Fault("no token", d -> d))),
                Tuple.of(1, badTokens()));
    }

    /**
     * Each kind of fault with its weight. The ones the server checks first (Accept, Content-Type, the
     * token) weigh less: with them in a request, the faults behind them are never looked at.
     */
    private List<Tuple2<Integer, Arbitrary<Fault>>> faults() {
        List<Tuple2<Integer, Arbitrary<Fault>>> faults = new ArrayList<>();
        for (Param param : operation.params()) {
            faults.add(Tuple.of(4, paramFaults(param)));
        }
        if (operation.body() != null) {
            faults.add(Tuple.of(4 + 2 * operation.body().path("properties").size(), bodyFaults()));
            faults.add(Tuple.of(1, contentTypeFaults()));
        }
        faults.add(Tuple.of(
                1,
                Arbitraries.of(
                                "application/xml",
                                "text/html",
                                "text/plain",
                                "image/png",
                                "application/json;q=0",
                                "application/xml, text/*;q=0.5")
                        .map(accept -> new Fault("Accept: " + accept, d -> d.header("Accept", accept)))));
        faults.add(Tuple.of(
                1,
                Arbitraries.of(MALFORMED_ACCEPT)
                        .map(accept ->
                                new Fault("malformed Accept: " + shortly(accept), d -> d.header("Accept", accept)))));
        if (operation.auth()) {
            faults.add(Tuple.of(
                    2,
                    badTokens()
                            .map(f -> new Fault(
                                    f.description + " (the route needs a token)", f.apply, f.belowApplication))));
        }
        return faults;
    }

    private Arbitrary<Fault> badTokens() {
        String owner = targets.ownerToken();
        String jwt = owner.substring("Bearer ".length());
        String[] parts = jwt.split("\\.");
        String otherPayload = parts[0] + "."
                + Base64.getUrlEncoder()
                        .withoutPadding()
                        .encodeToString(
                                "{\"sub\":\"someone\",\"iss\":\"cql-patterns\",\"aud\":\"cql-patterns\",\"exp\":9999999999,\"iat\":1}"
                                        .getBytes(StandardCharsets.UTF_8))
                + "." + parts[2];
        Map<String, String> tokens = new LinkedHashMap<>();
        tokens.put("no token", null);
        tokens.put("Bearer with nothing", "Bearer");
        tokens.put("garbage bearer", "Bearer garbage");
        tokens.put("three dots", "Bearer a.b.c");
        tokens.put("Basic credentials", "Basic dXNlcjpwYXNz");
        tokens.put("truncated token", owner.substring(0, owner.length() - 20));
        tokens.put("payload swapped under the owner's signature", "Bearer " + otherPayload);
        tokens.put("signature flipped", owner.substring(0, owner.length() - 2) + (owner.endsWith("A") ? "BB" : "AA"));
        tokens.put("5,000-character token", "Bearer " + "a".repeat(MAX_HEADER_VALUE));
        tokens.put("token in lower-case scheme with NUL", "bearer \u0000" + jwt);
        return Arbitraries.of(new ArrayList<>(tokens.entrySet())).map(e -> {
            Fault fault = new Fault(
                    e.getKey(),
                    d -> e.getValue() == null
                            ? d.withoutHeader("Authorization")
                            : d.header("Authorization", e.getValue()));
            return e.getValue() != null && hasControl(e.getValue()) ? fault.below() : fault;
        });
    }

    // ---------------------------------------------------------------- parameters

    private Arbitrary<Fault> paramFaults(Param param) {
        String valid = validValue(param);
        List<Arbitrary<Fault>> faults = new ArrayList<>();
        String where = param.in() + " " + param.name();
        if (param.in().equals("header")) {
            return headerFaults(param, valid);
        }
        faults.add(Arbitraries.of("%00", "%0A", "%0D%0A", "%1B", "%7F", "%C2%85", "%09", "%08")
                .flatMap(c -> insertions(valid, c)
                        .map(v -> new Fault(where + " with control " + c, d -> d.param(param, v)))));
        // at the end or alone: "%" before the value's own characters could make a valid escape ("%69" is "i")
        faults.add(Arbitraries.of("%", "%G1", "%F", "%%41", "%zz", "%1", "%-1")
                .flatMap(c -> Arbitraries.of(encode(valid) + c, c)
                        .map(v -> new Fault(where + " with broken escape " + c, d -> d.param(param, v)).below())));
        faults.add(Arbitraries.of(
                        "%FF", "%C0%AF", "%ED%A0%80", "%E2%82", "%80", "%F8%88%80%80%80", "%C1%BF", "%F4%90%80%80")
                .flatMap(c -> insertions(valid, c)
                        .map(v -> new Fault(where + " with non-UTF-8 " + c, d -> d.param(param, v)))));
        faults.add(Arbitraries.of("\u00e9", "\u65e5\u672c", "\u00a0", "\u00ff")
                .flatMap(c -> insertions(valid, c)
                        .map(v -> new Fault(where + " with raw non-ASCII " + escape(c), d -> d.param(param, v))
                                .below())));
        if (valid.chars().anyMatch(c -> c >= '0' && c <= '9') && isNumberOrId(param)) {
            faults.add(Arbitraries.of('\uFF10', '\u0660', '\u0966', '\u06F0')
                    .map(zero -> new Fault(
                            where + " in other digits from U+" + Integer.toHexString(zero),
                            d -> d.param(param, encode(digits(valid, zero))))));
        }
        List<String> outOfPattern = outOfPattern(param);
        if (!outOfPattern.isEmpty()) {
            faults.add(Arbitraries.of(outOfPattern)
                    .map(v -> new Fault(where + " out of pattern: " + shortly(v), d -> d.param(param, encode(v)))));
        }
        int max = maxLength(param.schema());
        if (max > 0) {
            faults.add(Arbitraries.of(max + 1, Math.max(max + 1, MAX_URL_VALUE / urlParams()))
                    .map(n -> new Fault(where + " of " + n + " characters", d -> d.param(param, "a".repeat(n)))));
        }
        if (param.type().equals("integer")) {
            faults.add(Arbitraries.of(badIntegers(param.schema()))
                    .map(v -> new Fault(where + " = " + v, d -> d.param(param, encode(v)))));
        }
        if (param.format().equals("date-time")) {
            faults.add(Arbitraries.of(
                            "2024-13-01T00:00:00Z",
                            "2024-02-30T00:00:00Z",
                            "yesterday",
                            "2024-01-01T25:00:00Z",
                            "+1000000-01-01T00:00:00Z",
                            "-999999999-01-01T00:00:00Z",
                            "1e9",
                            "2024-01-01T00:00:00+99:00")
                    .map(v -> new Fault(where + " = " + v, d -> d.param(param, encode(v)))));
        }
        if (param.name().equals("cursor")) {
            faults.add(cursorFaults(param));
        }
        if (param.required() && param.in().equals("query")) {
            faults.add(
                    Arbitraries.just(new Fault("required " + where + " left out", d -> d.removeQuery(param.name()))));
        }
        if (param.in().equals("query") && !param.required()) {
            // two values, the first invalid: which one did the client mean?
            faults.add(Arbitraries.just(new Fault(
                    where + " twice, the first invalid",
                    d -> d.param(param, "%FF").addQuery(param.name(), encode(valid)))));
        }
        return Arbitraries.oneOf(faults);
    }

    private Arbitrary<Fault> headerFaults(Param param, String valid) {
        String name = param.name();
        List<String> bad = new ArrayList<>(
                List.of("", " ", "a b", "x".repeat(MAX_HEADER_VALUE), "k\u00e9y", "\u0001abc", "abc\u0000", "\u007f"));
        if (name.equals("Idempotency-Key")) {
            bad.add("k".repeat(201));
        } else {
            // any other secret than the paste's own
            bad.add("q9V3mJf0yZ2cXo6gN1rTt8bE4sW7aD5kL0pHuQxRiMc");
            bad.add(valid.substring(0, valid.length() - 1));
            bad.add(valid + "x");
        }
        List<Arbitrary<Fault>> faults = new ArrayList<>();
        faults.add(Arbitraries.of(bad).map(v -> {
            Fault fault = new Fault(
                    "header " + name + " = " + shortly(v), d -> d.rawHeader(name, v.getBytes(StandardCharsets.UTF_8)));
            return hasControl(v) ? fault.below() : fault;
        }));
        faults.add(Arbitraries.of(
                        new byte[] {(byte) 0xFF}, new byte[] {(byte) 0xC0, (byte) 0xAF}, new byte[] {(byte) 0x80})
                .map(bytes -> new Fault("header " + name + " with non-UTF-8 bytes", d -> d.rawHeader(name, bytes))));
        faults.add(Arbitraries.just(new Fault(
                "header " + name + " twice",
                d -> d.rawHeader(name, "first".getBytes(StandardCharsets.UTF_8)).extraHeader(name, "second"))));
        if (param.required() || name.equals("X-Paste-Secret")) {
            faults.add(Arbitraries.just(new Fault("header " + name + " left out", d -> d.withoutHeader(name))));
        }
        return Arbitraries.oneOf(faults);
    }

    private Arbitrary<Fault> cursorFaults(Param param) {
        List<String> bad = spaced("x null e30 e30.e30 AAAA.AAAA %20 .. eyJ0IjoxfQ.AAAAAAAAAAAAAAAAAAAAAA");
        bad.add("x".repeat(MAX_URL_VALUE));
        for (Targets.Cursor cursor : targets.cursors()) {
            String value = cursor.value();
            if (cursor.forged()) {
                if (cursor.list().equals(operation.path())) {
                    bad.add(value);
                }
                continue;
            }
            bad.add(value.substring(0, value.length() / 2));
            bad.add(value.substring(0, value.length() - 1));
            bad.add(flip(value, value.length() / 3));
            bad.add(flip(value, value.length() - 2));
            bad.add(value + "A");
            if (!cursor.list().equals(operation.path())) {
                bad.add(value); // another list's cursor
            }
        }
        return Arbitraries.of(bad)
                .map(v -> new Fault(
                        "query cursor = " + shortly(v),
                        d -> d.param(
                                param,
                                encode(
                                        v.length() > MAX_URL_VALUE / urlParams()
                                                ? v.substring(0, MAX_URL_VALUE / urlParams())
                                                : v))));
    }

    /** How many parameters share the URL's budget of {@link #MAX_URL_VALUE}: each fault may make one long. */
    private int urlParams() {
        return (int) Math.max(
                1,
                operation.params().stream()
                        .filter(p -> !p.in().equals("header"))
                        .count());
    }

    /** The values of {@code list}, separated by single spaces (none holds one), in a list to add more to. */
    private static List<String> spaced(String list) {
        return new ArrayList<>(Arrays.asList(list.split(" ")));
    }

    private static String flip(String value, int at) {
        char c = value.charAt(at);
        char other = c == 'A' ? 'B' : c == '.' ? '_' : 'A';
        return value.substring(0, at) + other + value.substring(at + 1);
    }

    private List<String> badIntegers(JsonNode schema) {
        // no empty value: JAX-RS takes "limit=" as no limit, the default (leniency, not a fault)
        List<String> values = spaced(
                "abc 1.5 1e3 0x10 NaN Infinity 2147483648 -2147483649 99999999999999999999999999 1%20 %201 1_000 --1 1,5");
        if (schema.has("minimum")) {
            values.add(String.valueOf(schema.get("minimum").asLong() - 1));
            values.add("-1");
        }
        if (schema.has("maximum")) {
            values.add(String.valueOf(schema.get("maximum").asLong() + 1));
        }
        return values;
    }

    private static boolean isNumberOrId(Param param) {
        return param.type().equals("integer")
                || param.format().equals("uuid")
                || param.pattern().contains("0-9]{4}")
                || param.format().equals("date-time")
                || param.pattern().contains("a-fA-F0-9");
    }

    /** Candidates that break the parameter's pattern or format (the patterns are whole-value ones). */
    private static List<String> outOfPattern(Param param) {
        if (param.format().equals("uuid") || param.pattern().contains("a-fA-F0-9")) {
            return List.of(
                    "not-a-uuid",
                    "5d1f0c36-0b89-4c6b-9b0e-6f8a3f0d2f4",
                    "5d1f0c36-0b89-4c6b-9b0e-6f8a3f0d2f4eg",
                    "5d1f0c360b894c6b9b0e6f8a3f0d2f4e",
                    "{5d1f0c36-0b89-4c6b-9b0e-6f8a3f0d2f4e}",
                    "0",
                    "-1",
                    " ");
        }
        if (param.pattern().isEmpty()) {
            return List.of();
        }
        Pattern pattern = Pattern.compile(param.pattern());
        List<String> candidates = List.of(
                "",
                " ",
                "A",
                "ab",
                "a b",
                "a!b",
                "\u00fc",
                "UPPER",
                "a/b",
                "a?b",
                "a#b",
                "-x",
                "x".repeat(101),
                "\ud83d\ude00",
                "a\tb",
                "2024-1",
                "24-01",
                "2024-13",
                "2024-00",
                "0000-00",
                "a\\b",
                "<script>",
                "a;b",
                "a*",
                "' or 1=1");
        return candidates.stream().filter(c -> !pattern.matcher(c).matches()).toList();
    }

    /** The value inserted at the start, in the middle and at the end of {@code valid}'s encoding. */
    private static Arbitrary<String> insertions(String valid, String inserted) {
        String encoded = encode(valid);
        int middle = encoded.length() / 2;
        while (middle > 0
                && middle < encoded.length()
                && (encoded.charAt(middle - 1) == '%' || (middle > 1 && encoded.charAt(middle - 2) == '%'))) {
            middle--;
        }
        return Arbitraries.of(
                inserted + encoded,
                encoded.substring(0, middle) + inserted + encoded.substring(middle),
                encoded + inserted,
                inserted);
    }

    private static boolean hasControl(String value) {
        return value.chars().anyMatch(c -> c < 0x20 || c == 0x7F);
    }

    private static String digits(String value, char zero) {
        StringBuilder out = new StringBuilder();
        for (char c : value.toCharArray()) {
            out.append(c >= '0' && c <= '9' ? (char) (zero + c - '0') : c);
        }
        return out.toString();
    }

    // ---------------------------------------------------------------- bodies

    private Arbitrary<Fault> bodyFaults() {
        JsonNode schema = operation.body();
        List<String> fields = new ArrayList<>();
        schema.path("properties").fieldNames().forEachRemaining(fields::add);
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        List<Arbitrary<Fault>> faults = new ArrayList<>();

        faults.add(Arbitraries.of(fields)
                .flatMap(field -> Arbitraries.of(
                                wrongTypes(schema.path("properties").path(field)))
                        .map(v -> new Fault("body " + field + " = " + shortly(v), d -> d.bodyField(field, v)))));
        faults.add(Arbitraries.of(fields).flatMap(field -> {
            List<String> bad = badStrings(schema.path("properties").path(field));
            return bad.isEmpty()
                    ? Arbitraries.just(
                            new Fault("body " + field + " = \\ud800", d -> d.bodyField(field, "\"\\ud800\"")))
                    : Arbitraries.of(bad)
                            .map(v -> new Fault("body " + field + " = " + shortly(v), d -> d.bodyField(field, v)));
        }));
        if (!required.isEmpty()) {
            faults.add(Arbitraries.of(required)
                    .map(field -> new Fault("body without required " + field, d -> d.bodyField(field, null))));
        }
        faults.add(Arbitraries.of("zzUnknown", "Body", "ID", "__proto__", "")
                .map(field ->
                        new Fault("body with unknown field '" + field + "'", d -> d.bodyExtra("\"" + field + "\":1"))));
        faults.add(Arbitraries.of(fields)
                .map(field -> new Fault("body with " + field + " twice", d -> d.bodyTwice(field))));
        faults.add(Arbitraries.of("garbage", "}", ",", "{}", " x", "\u0000", "]", "\"", "null")
                .map(tail -> new Fault("body followed by " + escape(tail), d -> d.bodyText(d.bodyText() + tail))));
        faults.add(Arbitraries.of("", "\n", " ")
                .map(sep -> new Fault("two documents", d -> d.bodyText(d.bodyText() + sep + d.bodyText()))));
        faults.add(Arbitraries.of(2_000, 1_001, 20_000)
                .flatMap(depth -> Arbitraries.of(
                        new Fault(
                                depth + " nested arrays as the body",
                                d -> d.bodyText("[".repeat(depth) + "]".repeat(depth))),
                        new Fault(
                                depth + " nested objects as the body",
                                d -> d.bodyText("{\"a\":".repeat(depth) + "1" + "}".repeat(depth))),
                        new Fault(
                                depth + " nested arrays in field " + fields.get(0),
                                d -> d.bodyField(fields.get(0), "[".repeat(depth) + "]".repeat(depth))))));
        faults.add(Arbitraries.of(fields)
                .flatMap(field -> Arbitraries.of(
                                new byte[] {(byte) 0xC0, (byte) 0xAF},
                                new byte[] {(byte) 0xE0, (byte) 0x80, (byte) 0xAF},
                                new byte[] {(byte) 0xED, (byte) 0xA0, (byte) 0x80},
                                new byte[] {(byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80},
                                new byte[] {(byte) 0xFF},
                                new byte[] {(byte) 0x80},
                                new byte[] {(byte) 0xC3},
                                new byte[] {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80})
                        .map(bytes -> new Fault(
                                "body " + field + " with bytes " + hex(bytes), d -> d.bodyBytesIn(field, bytes)))));
        faults.add(Arbitraries.of("", " ", "null", "[]", "\"x\"", "1", "{", "{\"", "true", "[{}]", "\uFEFF{}")
                .filter(b -> !(b.equals("{}") && required.isEmpty()))
                .map(b -> new Fault("body '" + escape(b) + "'", d -> d.bodyText(b))));
        if (required.isEmpty()) {
            faults.add(Arbitraries.just(new Fault("body {} (no field given)", d -> d.bodyText("{}"))));
        }
        return Arbitraries.oneOf(faults);
    }

    /** JSON values of another type than the schema's (null only where the field is not nullable). */
    private static List<String> wrongTypes(JsonNode schema) {
        String type = schema.path("type").asText("string");
        boolean nullable = schema.path("nullable").asBoolean(false);
        List<String> values = new ArrayList<>(
                switch (type) {
                    case "integer" ->
                        List.of(
                                "\"5\"",
                                "\"x\"",
                                "1.5",
                                "1e308",
                                "-1e308",
                                "99999999999999999999",
                                "true",
                                "{}",
                                "[]",
                                "[1]",
                                "5.0e0");
                    case "boolean" -> List.of("\"true\"", "1", "0", "1.5", "{}", "[]", "\"x\"", "\"false\"");
                    case "array" ->
                        List.of(
                                "\"x\"",
                                "5",
                                "true",
                                "{}",
                                "{\"0\":\"x\"}",
                                "[1]",
                                "[true]",
                                "[null]",
                                "[{}]",
                                "[[]]",
                                "[1e308]",
                                "[\"\\ud800\"]");
                    case "object" ->
                        List.of(
                                "\"x\"",
                                "5",
                                "true",
                                "[]",
                                "[\"x\"]",
                                "{\"a\":1}",
                                "{\"a\":true}",
                                "{\"a\":null}",
                                "{\"a\":{}}",
                                "{\"a\":[]}",
                                "{\"a\":\"\\udc00\"}");
                    default ->
                        List.of(
                                "5",
                                "-1",
                                "1.5",
                                "1e308",
                                "-1e308",
                                "true",
                                "false",
                                "{}",
                                "{\"a\":\"b\"}",
                                "[]",
                                "[\"x\"]");
                });
        if (!nullable) {
            values.add("null");
        }
        return values;
    }

    /** Strings the field's schema forbids: lone surrogates always; length, pattern and controls where it says. */
    private static List<String> badStrings(JsonNode schema) {
        JsonNode strings = schema.path("type").asText("").equals("array") ? schema.path("items") : schema;
        if (!strings.path("type").asText("string").equals("string")) {
            return List.of();
        }
        List<String> values = new ArrayList<>(List.of("\\ud800", "a\\udc00", "\\udbff\\udbff", "x\\ud83d"));
        int max = maxLength(strings);
        if (max > 0) {
            values.add("x".repeat(max + 1));
            values.add("\u00e9".repeat(max + 1));
            if (max < MAX_HEADER_VALUE) {
                values.add("y".repeat(MAX_HEADER_VALUE));
            }
        }
        if (strings.path("minLength").asInt(0) > 0) {
            values.add("");
        }
        String pattern = strings.path("pattern").asText("");
        if (!pattern.isEmpty()) {
            Pattern compiled = Pattern.compile(pattern);
            for (String candidate : List.of(
                    "",
                    " ",
                    "\t\n",
                    "no-at-sign",
                    "a@b",
                    "@example.com",
                    "a b@example.com",
                    "a\u0000b",
                    "a\u0007b",
                    "a\nb",
                    "a\u001b[31m",
                    "a\u0085b",
                    "a\u007fb",
                    "UPPER",
                    "a!b")) {
                // JSON Schema patterns are not anchored: an unanchored one holds when it matches anywhere
                boolean fits = compiled.matcher(candidate).find();
                if (!fits) {
                    values.add(candidate);
                }
            }
        }
        List<String> json = new ArrayList<>();
        for (String value : values) {
            String text = value.startsWith("\\u") || value.contains("\\u") ? "\"" + value + "\"" : quote(value);
            json.add(strings == schema ? text : "[" + text + "]");
        }
        return json;
    }

    private Arbitrary<Fault> contentTypeFaults() {
        return Arbitraries.of(
                        "text/plain",
                        "application/xml",
                        "application/x-www-form-urlencoded",
                        "multipart/form-data; boundary=x",
                        "application/jsonx",
                        "json",
                        " ",
                        "text/json",
                        "application/octet-stream",
                        "")
                .map(type -> new Fault(
                        type.isEmpty() ? "no Content-Type" : "Content-Type: " + type,
                        d -> type.isEmpty() ? d.withoutHeader("Content-Type") : d.header("Content-Type", type)));
    }

    // ---------------------------------------------------------------- the valid request

    private String validValue(Param param) {
        return switch (param.in()) {
            case "path" -> targets.pathValue(operation.path(), param.name());
            case "header" -> targets.headerValues().getOrDefault(param.name(), "fuzz-key-1");
            default -> targets.queryValues().getOrDefault(param.name(), defaultQueryValue(param));
        };
    }

    private static String defaultQueryValue(Param param) {
        if (param.type().equals("integer")) {
            return "1";
        }
        if (param.format().equals("date-time")) {
            return "2025-01-01T00:00:00Z";
        }
        if (param.pattern().startsWith("^[0-9]{4}")) {
            return "2025-01";
        }
        return "x";
    }

    private Draft valid() {
        Draft draft = new Draft();
        for (Param param : operation.params()) {
            String value = validValue(param);
            if (param.in().equals("path")) {
                draft.path.put(param.name(), encode(value));
            } else if (param.in().equals("query")
                    && (param.required() || targets.queryValues().containsKey(param.name()))) {
                draft.query.add(new String[] {param.name(), encode(value)});
            } else if (param.in().equals("header") && targets.headerValues().containsKey(param.name())) {
                draft.headers.put(param.name(), value.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (operation.body() != null) {
            draft.headers.put("Content-Type", "application/json".getBytes(StandardCharsets.US_ASCII));
            draft.body = validBody(operation.body());
        }
        return draft;
    }

    /** The schema's required fields and those with an example, each its example or a value of its type. */
    private static ObjectNode validBody(JsonNode schema) {
        ObjectNode body = NODES.objectNode();
        List<String> required = new ArrayList<>();
        schema.path("required").forEach(r -> required.add(r.asText()));
        for (Iterator<Map.Entry<String, JsonNode>> it =
                        schema.path("properties").fields();
                it.hasNext(); ) {
            Map.Entry<String, JsonNode> field = it.next();
            if (required.contains(field.getKey()) || field.getValue().has("example")) {
                body.set(field.getKey(), validValue(field.getValue()));
            }
        }
        return body;
    }

    private static JsonNode validValue(JsonNode schema) {
        if (schema.has("example")) {
            return schema.get("example");
        }
        return switch (schema.path("type").asText("string")) {
            case "integer" -> NODES.numberNode(schema.path("minimum").asInt(1));
            case "boolean" -> NODES.booleanNode(false);
            case "array" -> NODES.arrayNode().add(validValue(schema.path("items")));
            case "object" -> schema.has("properties") ? validBody(schema) : NODES.objectNode();
            default -> NODES.textNode("fuzz");
        };
    }

    /** A request being made: path values and query already encoded, the body a JSON object or raw text. */
    private final class Draft {
        final Map<String, String> path = new LinkedHashMap<>();
        final List<String[]> query = new ArrayList<>();
        final Map<String, byte[]> headers = new LinkedHashMap<>();
        final List<Header> extraHeaders = new ArrayList<>();
        ObjectNode body;
        /** Set once the body is no longer a JSON object: the text to send, with {@link #MARK} for raw bytes. */
        String text;

        byte[] rawBytes;

        Draft param(Param param, String encoded) {
            switch (param.in()) {
                case "path" -> path.put(param.name(), encoded);
                case "header" -> headers.put(param.name(), encoded.getBytes(StandardCharsets.UTF_8));
                default -> {
                    query.removeIf(q -> q[0].equals(param.name()));
                    query.add(new String[] {param.name(), encoded});
                }
            }
            return this;
        }

        Draft addQuery(String name, String encoded) {
            query.add(new String[] {name, encoded});
            return this;
        }

        Draft removeQuery(String name) {
            query.removeIf(q -> q[0].equals(name));
            return this;
        }

        Draft header(String name, String value) {
            headers.put(name, value.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        Draft rawHeader(String name, byte[] value) {
            headers.put(name, value);
            return this;
        }

        Draft extraHeader(String name, String value) {
            extraHeaders.add(Header.of(name, value));
            return this;
        }

        Draft withoutHeader(String name) {
            headers.remove(name);
            extraHeaders.removeIf(h -> h.name().equalsIgnoreCase(name));
            return this;
        }

        String bodyText() {
            if (text != null) {
                return text;
            }
            return render(body);
        }

        Draft bodyText(String newText) {
            text = newText;
            return this;
        }

        /** The field once more; a field the body no longer has (or never had) is added twice. */
        Draft bodyTwice(String field) {
            JsonNode value = body == null ? null : body.get(field);
            String member = quote(field) + ":" + (value == null ? "\"fuzz\"" : value.toString());
            boolean present = value != null && text == null;
            bodyExtra(member);
            return present ? this : bodyExtra(member);
        }

        /** Sets a field to raw JSON text ({@code null}: removes it); on a body already made raw, splices it in. */
        Draft bodyField(String field, String json) {
            if (text == null && body != null) {
                ObjectNode copy = body.deepCopy();
                if (json == null) {
                    copy.remove(field);
                    body = copy;
                    return this;
                }
                copy.put(field, MARK + "V");
                text = replaceMarked(render(copy), json);
                return this;
            }
            return this; // the body is no longer an object: this fault adds nothing
        }

        Draft bodyExtra(String member) {
            String current = bodyText().trim();
            if (current.startsWith("{") && current.endsWith("}")) {
                text = current.equals("{}")
                        ? "{" + member + "}"
                        : current.substring(0, current.length() - 1) + "," + member + "}";
            }
            return this;
        }

        Draft bodyBytesIn(String field, byte[] bytes) {
            bodyField(field, quote("a" + MARK + "b"));
            rawBytes = bytes;
            return this;
        }

        FuzzRequest build(List<String> mutations, boolean belowApplication) {
            String target = operation.path();
            for (Map.Entry<String, String> p : path.entrySet()) {
                target = target.replace("{" + p.getKey() + "}", p.getValue());
            }
            if (!query.isEmpty()) {
                StringBuilder q = new StringBuilder();
                for (String[] pair : query) {
                    q.append(q.length() == 0 ? '?' : '&')
                            .append(pair[0])
                            .append('=')
                            .append(pair[1]);
                }
                target += q;
            }
            List<Header> all = new ArrayList<>();
            headers.forEach((name, value) -> all.add(new Header(name, value)));
            all.addAll(extraHeaders);
            byte[] bytes = null;
            if (operation.body() != null) {
                bytes = bodyBytes();
            }
            return new FuzzRequest(operation.id(), operation.method(), target, all, bytes, mutations, belowApplication);
        }

        private byte[] bodyBytes() {
            String rendered = bodyText();
            int at = rendered.indexOf(MARK);
            if (at < 0 || rawBytes == null) {
                return rendered.replace(MARK, "").getBytes(StandardCharsets.UTF_8);
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.writeBytes(rendered.substring(0, at).getBytes(StandardCharsets.UTF_8));
            out.writeBytes(rawBytes);
            out.writeBytes(
                    rendered.substring(at + MARK.length()).replace(MARK, "").getBytes(StandardCharsets.UTF_8));
            return out.toByteArray();
        }
    }

    /** The JSON of {@code node}, with the marker's control characters left raw. */
    private static String render(ObjectNode node) {
        try {
            return JSON.writeValueAsString(node).replace("\\u0001", "\u0001");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Puts raw JSON where the marker string value is in {@code rendered}. */
    private static String replaceMarked(String rendered, String json) {
        String marker = quote(MARK + "V");
        int at = rendered.indexOf(marker);
        return rendered.substring(0, at) + json + rendered.substring(at + marker.length());
    }

    // ---------------------------------------------------------------- text helpers

    /** A JSON string literal of {@code value}; the marker's control characters stay as they are. */
    private static String quote(String value) {
        try {
            return JSON.writeValueAsString(value).replace("\\u0001", "\u0001");
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Percent-encodes everything but RFC 3986's unreserved characters, as UTF-8. */
    public static String encode(String value) {
        StringBuilder out = new StringBuilder();
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xFF;
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~') {
                out.append((char) c);
            } else {
                out.append('%').append(String.format("%02X", c));
            }
        }
        return out.toString();
    }

    private static int maxLength(JsonNode schema) {
        if (schema.has("maxLength")) {
            return schema.get("maxLength").asInt();
        }
        Matcher bounded = Pattern.compile("\\{(\\d+),(\\d+)}\\$?$")
                .matcher(schema.path("pattern").asText(""));
        return bounded.find() ? Integer.parseInt(bounded.group(2)) : 0;
    }

    private static String hex(byte[] bytes) {
        StringBuilder out = new StringBuilder();
        for (byte b : bytes) {
            out.append(String.format("%02X ", b & 0xFF));
        }
        return out.toString().trim();
    }

    private static String escape(String value) {
        StringBuilder out = new StringBuilder();
        for (char c : value.toCharArray()) {
            out.append(c >= 0x20 && c < 0x7F ? String.valueOf(c) : String.format("\\u%04x", (int) c));
        }
        return out.toString();
    }

    private static String shortly(String value) {
        String escaped = escape(value);
        return escaped.length() <= 40 ? escaped : escaped.substring(0, 30) + "...(" + value.length() + " chars)";
    }
}
