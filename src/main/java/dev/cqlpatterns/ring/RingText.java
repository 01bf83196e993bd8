package dev.cqlpatterns.ring;

import dev.cqlpatterns.platform.http.Text;
import java.util.regex.Pattern;
import org.eclipse.microprofile.openapi.annotations.enums.SchemaType;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The strings of the ring routes and their rules, stated in the contract and held to here: what a
 * caller may name (a table, a partition key's columns and values) is refused with a 400 outside them, and what
 * the cluster reports (addresses, names, tokens) is checked before it is answered, so an answer
 * never says more than the contract allows (a value outside is a 500, logged).
 */
final class RingText {
    /** A keyspace, table or column name, as Cassandra takes one unquoted; and the words for it. */
    private static final String NAME_CHARS = "[A-Za-z0-9_]{1,48}";

    private static final String NAME_WORDS = "1 to 48 of A-Z, a-z, 0-9 and _";
    /** A value of a partition key column, in CQL literal form without quotes; and the words for it. */
    private static final String VALUE_CHARS = Text.SINGLE_LINE_CHAR + "{1,256}";

    private static final String VALUE_WORDS = "1 to 256 characters without control characters";
    /** A keyspace or table name. */
    static final String IDENTIFIER = "^" + NAME_CHARS + "$";

    static final String IDENTIFIER_MESSAGE = "must be " + NAME_WORDS;
    /** A node's CQL endpoint: host:port, IPv4 or IPv6 (with its scope). */
    static final String ADDRESS = "^[0-9A-Za-z.:%/\\[\\]_-]{1,100}$";
    /** A data centre or rack, as the cluster's snitch names it. */
    static final String NAME = "^" + Text.SINGLE_LINE_CHAR + "{1,128}$";
    /** A token as the partitioner formats it: signed decimal (Murmur3), decimal (Random) or hex (ordered). */
    static final String TOKEN = "^[-0-9a-fx]{1,80}$";
    /** The partitioner's Java class name. */
    static final String PARTITIONER = "^[A-Za-z0-9_.$]{1,200}$";
    /** One value of a partition key, in CQL literal form without quotes. */
    static final String KEY_VALUE = "^" + VALUE_CHARS + "$";
    /** One column of a partition key as a query gives it: column=value. */
    static final String KEY_PART = "^" + NAME_CHARS + "=" + VALUE_CHARS + "$";

    static final String KEY_PART_MESSAGE =
            "must be column=value: a column name (" + NAME_WORDS + "), then " + VALUE_WORDS;
    /** Columns in one partition key, at most. */
    static final int KEY_PARTS_MAX = 16;

    private static final Pattern IDENTIFIER_RULE = Pattern.compile(IDENTIFIER);
    private static final Pattern ADDRESS_RULE = Pattern.compile(ADDRESS);
    private static final Pattern NAME_RULE = Pattern.compile(NAME);
    private static final Pattern TOKEN_RULE = Pattern.compile(TOKEN);
    private static final Pattern PARTITIONER_RULE = Pattern.compile(PARTITIONER);
    private static final Pattern KEY_PART_RULE = Pattern.compile(KEY_PART);

    private RingText() {}

    /** The contract's schema of one node address, for lists of them. */
    @Schema(
            name = "NodeAddress",
            type = SchemaType.STRING,
            pattern = ADDRESS,
            maxLength = 100,
            examples = "127.0.0.1:9042")
    static final class Address {
        private Address() {}
    }

    /** The contract's schema of one column=value of a partition key, for the lists of them. */
    @Schema(
            name = "PartitionKeyPart",
            type = SchemaType.STRING,
            pattern = KEY_PART,
            maxLength = 48 + 1 + 256,
            examples = "artist=Miles Davis")
    static final class KeyPart {
        private KeyPart() {}
    }

    /** The contract's schema of one partition key value, for the maps of them. */
    @Schema(
            name = "PartitionKeyValue",
            type = SchemaType.STRING,
            pattern = KEY_VALUE,
            maxLength = 256,
            examples = "Miles Davis")
    static final class KeyValue {
        private KeyValue() {}
    }

    static boolean isKeyPart(String value) {
        return KEY_PART_RULE.matcher(value).matches();
    }

    static String identifier(String value) {
        return reported(value, IDENTIFIER_RULE, "name");
    }

    static String address(String value) {
        return reported(value, ADDRESS_RULE, "node address");
    }

    static String name(String value) {
        return reported(value, NAME_RULE, "data centre or rack");
    }

    static String token(String value) {
        return reported(value, TOKEN_RULE, "token");
    }

    static String partitioner(String value) {
        return reported(value, PARTITIONER_RULE, "partitioner");
    }

    private static String reported(String value, Pattern rule, String what) {
        if (value == null || !rule.matcher(value).matches()) {
            throw new IllegalStateException("The cluster reported a " + what + " outside the contract: " + value);
        }
        return value;
    }
}
