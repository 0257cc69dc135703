package io.streamledger.operators.ledgercheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.math.BigDecimal;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.api.common.typeutils.TypeSerializerSchemaCompatibility;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;
import org.junit.jupiter.api.Test;

/** The balance check's typed line state (CS11): exact round trip, versioned format and snapshot. */
class TxnLineSerializerTest {

    private static byte[] bytes(TxnLine l) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        TxnLineSerializer.INSTANCE.serialize(l, out);
        return out.getCopyOfBuffer();
    }

    @Test
    void roundTripKeepsTheExactAmountAndItsScale() throws IOException {
        TxnLine l = new TxnLine("CASH", "USD", new BigDecimal("-100.10"));
        TxnLine back = TxnLineSerializer.INSTANCE.deserialize(new DataInputDeserializer(bytes(l)));
        assertThat(back).isEqualTo(l);
        assertThat(back.amount().scale()).isEqualTo(2);
    }

    @Test
    void theAccountRoundTripsAndTheFormerFormatReadsWithoutIt() throws IOException {
        TxnLine l = new TxnLine("ACC-1", "CASH", "USD", new BigDecimal("5.00"));
        assertThat(TxnLineSerializer.INSTANCE.deserialize(new DataInputDeserializer(bytes(l))))
                .isEqualTo(l);
        DataOutputSerializer v1 = new DataOutputSerializer(64);
        v1.writeByte(1);
        v1.writeUTF("CASH");
        v1.writeUTF("USD");
        org.apache.flink.api.common.typeutils.base.BigDecSerializer.INSTANCE.serialize(
                new BigDecimal("5.00"), v1);
        TxnLine old =
                TxnLineSerializer.INSTANCE.deserialize(
                        new DataInputDeserializer(v1.getCopyOfBuffer()));
        assertThat(old.account()).isNull();
        assertThat(old.sameAs(l)).isTrue();
    }

    @Test
    void anUnknownFormatByteIsRejected() throws IOException {
        byte[] b = bytes(new TxnLine("SEC", "AAPL", BigDecimal.ONE));
        b[0] = 3;
        assertThatThrownBy(
                        () -> TxnLineSerializer.INSTANCE.deserialize(new DataInputDeserializer(b)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("unknown TxnLine format 3");
    }

    @Test
    void snapshotRestoresACompatibleSerializer() throws IOException {
        TypeSerializerSnapshot<TxnLine> snap = TxnLineSerializer.INSTANCE.snapshotConfiguration();
        DataOutputSerializer out = new DataOutputSerializer(64);
        TypeSerializerSnapshot.writeVersionedSnapshot(out, snap);
        TypeSerializerSnapshot<TxnLine> read =
                TypeSerializerSnapshot.readVersionedSnapshot(
                        new DataInputDeserializer(out.getCopyOfBuffer()),
                        getClass().getClassLoader());
        TypeSerializer<TxnLine> restored = read.restoreSerializer();
        assertThat(restored).isSameAs(TxnLineSerializer.INSTANCE);
        TypeSerializerSchemaCompatibility<TxnLine> compat =
                TxnLineSerializer.INSTANCE.snapshotConfiguration().resolveSchemaCompatibility(read);
        assertThat(compat.isCompatibleAsIs()).isTrue();
    }

    @Test
    void legacyEncodingIsRead() {
        assertThat(TxnLine.fromLegacy("CASH:USD|-60.00"))
                .isEqualTo(new TxnLine("CASH", "USD", new BigDecimal("-60.00")));
        assertThat(TxnLine.fromLegacy("SEC:BRK.B|3").toString()).isEqualTo("SEC:BRK.B|3");
        assertThatThrownBy(() -> TxnLine.fromLegacy("CASH-USD-1"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
