package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class PagingStatesTest {
    /** messages_by_conversation: ((uuid, int), timeuuid). */
    private static final PagingStates.Shape MESSAGE_KEY = new PagingStates.Shape(List.of(16, 4), List.of(16));
    /** A state Cassandra 5.0.9 made for an SAI query over such a table (one row a page). */
    private static final String CASSANDRAS = "1a00107b1d2c3e00004000800000000000000100000400031773001200104c7bacb0"
            + "eac011f19382b3b8397644f1f07ffffffbf07ffffffd";

    @Test
    void should_read_cassandras_own_state_and_write_the_same_bytes_again() {
        PagingStates.State state =
                PagingStates.read(bytes(CASSANDRAS), MESSAGE_KEY).orElseThrow();
        assertThat(hex(state.partitionKey().get(0))).isEqualTo("7b1d2c3e000040008000000000000001");
        assertThat(state.partitionKey().get(1).getInt(0)).isEqualTo(202611);
        assertThat(state.remaining()).isEqualTo(0x7ffffffb);
        assertThat(state.remainingInPartition()).isEqualTo(0x7ffffffd);
        assertThat(hex(PagingStates.write(state))).isEqualTo(CASSANDRAS);
    }

    @Test
    void should_refuse_anything_but_exactly_a_state_of_the_shape() {
        String truncated = CASSANDRAS.substring(0, CASSANDRAS.length() - 2);
        String longer = CASSANDRAS + "00";
        // the driver's "safe" paging state: the raw state followed by a hash anyone can compute
        String withHash = CASSANDRAS + "00112233445566778899aabbccddeeff";
        String garbage = "000000";
        // one uuid as the whole partition key (another table's)
        String foreign = "107b1d2c3e00004000800000000000000112" + "0010" + "4c7bacb0eac011f19382b3b8397644f1" + "0000";
        // remaining of five bytes beyond an int
        String huge = CASSANDRAS.substring(0, CASSANDRAS.length() - 20) + "f8ffffffffff" + "00";
        for (String bad : List.of(truncated, longer, withHash, garbage, foreign, huge, "")) {
            assertThat(PagingStates.read(bytes(bad), MESSAGE_KEY)).as(bad).isEmpty();
        }
        assertThat(PagingStates.read(bytes(CASSANDRAS), new PagingStates.Shape(List.of(16), List.of(16))))
                .isEmpty();
    }

    @Test
    void should_write_vints_as_cassandra_sizes_them() {
        for (long value : new long[] {0, 1, 127, 128, 16_383, 16_384, 2_097_151, 2_097_152, Integer.MAX_VALUE}) {
            ByteBuffer out = ByteBuffer.allocate(9);
            PagingStates.putUnsignedVInt(out, value);
            int size = out.position();
            // Cassandra's VIntCoding.computeUnsignedVIntSize
            int magnitude = Long.numberOfLeadingZeros(value | 1);
            assertThat(size).as("size of %d", value).isEqualTo((639 - magnitude * 9) >> 6);
            assertThat(PagingStates.unsignedVInt(out.flip())).isEqualTo(value);
        }
    }

    private static ByteBuffer bytes(String hex) {
        return ByteBuffer.wrap(HexFormat.of().parseHex(hex));
    }

    private static String hex(ByteBuffer buffer) {
        byte[] b = new byte[buffer.remaining()];
        buffer.duplicate().get(b);
        return HexFormat.of().formatHex(b);
    }
}
