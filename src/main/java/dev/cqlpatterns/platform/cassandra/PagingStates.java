package dev.cqlpatterns.platform.cassandra;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Cassandra's paging state of native protocol v4 and later, taken apart and put together by the
 * service, so that Cassandra never receives paging-state bytes that came from outside.
 *
 * <p>Cassandra answers a malformed paging state with a fatal protocol error: it closes the
 * connection, and every request in flight on it fails, whoever sent it. A cursor's MAC is no guard
 * once its key leaks, and the driver's {@code PagingState.matches} hashes without a key. So a cursor
 * carries the state Cassandra made, but before it goes back the service reads it as the statement's
 * own shape ({@link Shape}: the widths of the partition key's components and the number of
 * clustering values) and sends the state it builds again from those values. Anything else, longer,
 * shorter or of another table, is refused before a byte is sent.
 *
 * <p>The layout (Cassandra's {@code PagingState}, modern form): the partition key and the row mark,
 * each with an unsigned vint length, then {@code remaining} and {@code remainingInPartition} as
 * unsigned vints. A partition key of several components is a composite (per component a 2-byte
 * length, the value, an end-of-component byte 0); the row mark is the last row's clustering as
 * Cassandra's clustering serializer writes untyped values (a header vint of null/empty bits, 0 when
 * every value is set, then each value with a vint length).
 */
public final class PagingStates {

    /** The key of the rows a statement pages through: fixed-width key components, clustering values. */
    public record Shape(List<Integer> partitionKeyWidths, List<Integer> clusteringWidths) {
        public Shape {
            partitionKeyWidths = List.copyOf(partitionKeyWidths);
            clusteringWidths = List.copyOf(clusteringWidths);
        }
    }

    /** A paging state as values: where the next page starts, and how much of the query's limits is left. */
    public record State(
            List<ByteBuffer> partitionKey, List<ByteBuffer> clustering, int remaining, int remainingInPartition) {}

    private PagingStates() {}

    /** The state's values when {@code bytes} is exactly a state of {@code shape}; empty otherwise. */
    public static Optional<State> read(ByteBuffer bytes, Shape shape) {
        ByteBuffer in = bytes.duplicate();
        try {
            ByteBuffer key = slice(in, unsignedVInt(in));
            ByteBuffer mark = slice(in, unsignedVInt(in));
            long remaining = unsignedVInt(in);
            long remainingInPartition = unsignedVInt(in);
            if (in.hasRemaining() || remaining > Integer.MAX_VALUE || remainingInPartition > Integer.MAX_VALUE) {
                return Optional.empty();
            }
            Optional<List<ByteBuffer>> keyValues = partitionKey(key, shape.partitionKeyWidths());
            Optional<List<ByteBuffer>> clustering = clustering(mark, shape.clusteringWidths());
            if (keyValues.isEmpty() || clustering.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(
                    new State(keyValues.get(), clustering.get(), (int) remaining, (int) remainingInPartition));
        } catch (IllegalArgumentException | java.nio.BufferUnderflowException e) {
            return Optional.empty();
        }
    }

    /** The bytes Cassandra reads as {@code state}. */
    public static ByteBuffer write(State state) {
        ByteBuffer key = state.partitionKey().size() == 1
                ? state.partitionKey().get(0).duplicate()
                : composite(state.partitionKey());
        ByteBuffer mark = clusteringMark(state.clustering());
        ByteBuffer out = ByteBuffer.allocate(5 + key.remaining() + 5 + mark.remaining() + 10);
        putUnsignedVInt(out, key.remaining());
        out.put(key);
        putUnsignedVInt(out, mark.remaining());
        out.put(mark);
        putUnsignedVInt(out, state.remaining());
        putUnsignedVInt(out, state.remainingInPartition());
        return out.flip();
    }

    private static Optional<List<ByteBuffer>> partitionKey(ByteBuffer key, List<Integer> widths) {
        if (widths.size() == 1) {
            return key.remaining() == widths.get(0) ? Optional.of(List.of(key)) : Optional.empty();
        }
        List<ByteBuffer> values = new ArrayList<>();
        for (int width : widths) {
            if (key.remaining() < 2 || (key.getShort() & 0xFFFF) != width) {
                return Optional.empty();
            }
            values.add(slice(key, width));
            if (!key.hasRemaining() || key.get() != 0) {
                return Optional.empty();
            }
        }
        return key.hasRemaining() ? Optional.empty() : Optional.of(values);
    }

    private static Optional<List<ByteBuffer>> clustering(ByteBuffer mark, List<Integer> widths) {
        // Every value set: a zero header (one group of 32 values is all a key here can have).
        if (widths.size() > 32 || unsignedVInt(mark) != 0) {
            return Optional.empty();
        }
        List<ByteBuffer> values = new ArrayList<>();
        for (int width : widths) {
            if (unsignedVInt(mark) != width) {
                return Optional.empty();
            }
            values.add(slice(mark, width));
        }
        return mark.hasRemaining() ? Optional.empty() : Optional.of(values);
    }

    private static ByteBuffer composite(List<ByteBuffer> components) {
        int size = components.stream().mapToInt(c -> 3 + c.remaining()).sum();
        ByteBuffer out = ByteBuffer.allocate(size);
        for (ByteBuffer c : components) {
            out.putShort((short) c.remaining());
            out.put(c.duplicate());
            out.put((byte) 0);
        }
        return out.flip();
    }

    private static ByteBuffer clusteringMark(List<ByteBuffer> values) {
        int size = 1 + values.stream().mapToInt(v -> 5 + v.remaining()).sum();
        ByteBuffer out = ByteBuffer.allocate(size);
        putUnsignedVInt(out, 0);
        for (ByteBuffer v : values) {
            putUnsignedVInt(out, v.remaining());
            out.put(v.duplicate());
        }
        return out.flip();
    }

    private static ByteBuffer slice(ByteBuffer in, long length) {
        if (length < 0 || length > in.remaining()) {
            throw new IllegalArgumentException("length " + length + " past the end");
        }
        ByteBuffer part = in.slice(in.position(), (int) length);
        in.position(in.position() + (int) length);
        return part;
    }

    /** Cassandra's unsigned vint: the first byte's leading one bits count the bytes that follow. */
    static long unsignedVInt(ByteBuffer in) {
        int first = in.get();
        if (first >= 0) {
            return first;
        }
        int extra = Integer.numberOfLeadingZeros(~first) - 24;
        if (extra > 4) {
            // More than an int's worth: no count of a paging state is that large.
            throw new IllegalArgumentException("vint of " + extra + " extra bytes");
        }
        long value = first & (0xFF >> extra);
        for (int i = 0; i < extra; i++) {
            value = (value << 8) | (in.get() & 0xFF);
        }
        return value;
    }

    static void putUnsignedVInt(ByteBuffer out, long value) {
        int extra = (63 - Long.numberOfLeadingZeros(value | 1)) / 7;
        // 7 bits in one byte, 14 in two, ... as Cassandra's VIntCoding sizes them.
        if (extra == 0) {
            out.put((byte) value);
            return;
        }
        out.put((byte) ((0xFF << (8 - extra)) | (value >>> (8 * extra))));
        for (int i = extra - 1; i >= 0; i--) {
            out.put((byte) (value >>> (8 * i)));
        }
    }
}
