package dev.cqlpatterns.testsupport;

import java.util.Base64;
import java.util.HexFormat;
import java.util.List;

/**
 * Paging states no page of GET /messages?sender= ever made, from one that Cassandra did make (the
 * index query over messages_by_conversation: a (uuid, int) partition key, a timeuuid clustering):
 * garbage, cut short, one byte longer, the driver's "safe" state with its keyless hash appended, a
 * random uuid where the timeuuid goes, another table's key. Each is base64, as cursors carry them.
 */
public final class ForgedPagingStates {
    private ForgedPagingStates() {}

    public static List<String> from(String realBase64) {
        String hex = HexFormat.of().formatHex(Base64.getDecoder().decode(realBase64));
        // [vint 26][key: 26 bytes][vint 18][mark: header, vint 16, 16 bytes][two 5-byte vints]
        int counts = hex.length() - 20;
        int messageId = counts - 32;
        return List.of(
                        "000000",
                        hex.substring(0, hex.length() - 2),
                        hex + "00",
                        hex + "00112233445566778899aabbccddeeff",
                        hex.substring(0, messageId) + "3b1d2c3e00004000800000000000000a" + hex.substring(counts),
                        "10" + hex.substring(6, 38) + hex.substring(messageId - 6))
                .stream()
                .map(h -> Base64.getEncoder().encodeToString(HexFormat.of().parseHex(h)))
                .toList();
    }
}
