package dev.cqlpatterns.platform.cassandra;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.DefaultProtocolVersion;
import com.datastax.oss.driver.internal.core.protocol.ByteBufPrimitiveCodec;
import com.datastax.oss.protocol.internal.Compressor;
import com.datastax.oss.protocol.internal.FrameCodec;
import com.datastax.oss.protocol.internal.response.error.WriteTimeout;
import com.datastax.oss.quarkus.runtime.api.session.QuarkusCqlSession;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.quarkus.test.junit.QuarkusTest;
import jakarta.inject.Inject;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * The service speaks native protocol V4 to Cassandra, not V5. Cassandra 5 answers a CAS write
 * timeout in V5 with one more field, the number of contentions (a short), which the driver's codec
 * does not read. V5 packs several frames into one segment and decodes them one after the other, so
 * the two bytes left over are read as the next frame's header: the decode fails and the driver
 * closes the connection, failing every request in flight on it from every caller. Under contended
 * LWTs (sign-ups, claims, positions) and at a node's death (Paxos rounds timing out) that took
 * whole connections down. V4 has no such field.
 */
@QuarkusTest
class ProtocolVersionTest {
    @Inject
    QuarkusCqlSession session;

    @Test
    void should_speak_protocol_v4() {
        assertThat(session.getContext().getProtocolVersion()).isEqualTo(DefaultProtocolVersion.V4);
    }

    /**
     * What V5 would do: a WRITE_TIMEOUT of a CAS write as Cassandra 5 encodes it in V5, decoded as a
     * segment's frames are, leaves two bytes behind, and the next "frame" fails to decode. Should this
     * fail, the driver reads the field now, and V5 can come back.
     */
    @Test
    void should_know_why_not_v5() {
        ByteBuf segment = ByteBufAllocator.DEFAULT.buffer();
        try {
            writeCasWriteTimeout(segment);
            FrameCodec<ByteBuf> codec =
                    FrameCodec.defaultClient(new ByteBufPrimitiveCodec(ByteBufAllocator.DEFAULT), Compressor.none());

            assertThat(codec.decode(segment).message).isInstanceOf(WriteTimeout.class);
            assertThat(segment.readableBytes())
                    .as("the contentions field, left unread")
                    .isEqualTo(2);
            assertThatThrownBy(() -> codec.decode(segment)).isInstanceOf(IndexOutOfBoundsException.class);
        } finally {
            segment.release();
        }
    }

    /** One response frame: ERROR, WRITE_TIMEOUT at SERIAL, write type CAS, 3 contentions (protocol v5, section 8). */
    private static void writeCasWriteTimeout(ByteBuf out) {
        ByteBuf body = ByteBufAllocator.DEFAULT.buffer();
        try {
            body.writeInt(0x1100); // WRITE_TIMEOUT
            writeString(body, "CAS operation timed out - encountered contentions: 3");
            body.writeShort(0x0008); // SERIAL
            body.writeInt(1); // received
            body.writeInt(2); // block for
            writeString(body, "CAS");
            body.writeShort(3); // contentions: V5 only
            out.writeByte(0x85); // response, version 5
            out.writeByte(0); // flags
            out.writeShort(7); // stream id
            out.writeByte(0x00); // ERROR
            out.writeInt(body.readableBytes());
            out.writeBytes(body);
        } finally {
            body.release();
        }
    }

    private static void writeString(ByteBuf out, String s) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeShort(bytes.length);
        out.writeBytes(bytes);
    }
}
