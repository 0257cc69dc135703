package io.streamledger.operators.ledgercheck;

import java.io.IOException;
import java.math.BigDecimal;
import org.apache.flink.api.common.typeutils.SimpleTypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.TypeSerializerSnapshot;
import org.apache.flink.api.common.typeutils.base.BigDecSerializer;
import org.apache.flink.api.common.typeutils.base.TypeSerializerSingleton;
import org.apache.flink.core.memory.DataInputView;
import org.apache.flink.core.memory.DataOutputView;

/**
 * Versioned serializer of {@link TxnLine} keyed state (CS11 balance check): a format byte, then
 * assetType, asset, the exact amount and (format 2) the account. An unknown format byte fails the
 * restore instead of misreading amounts.
 */
public final class TxnLineSerializer extends TypeSerializerSingleton<TxnLine> {

    private static final long serialVersionUID = 1L;

    public static final TxnLineSerializer INSTANCE = new TxnLineSerializer();

    /** Format of one serialized line: 2 appends the account (1 did not have it). */
    static final int FORMAT = 2;

    static final int FORMAT_WITHOUT_ACCOUNT = 1;

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public TxnLine createInstance() {
        return null;
    }

    @Override
    public TxnLine copy(TxnLine from) {
        return from;
    }

    @Override
    public TxnLine copy(TxnLine from, TxnLine reuse) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(TxnLine line, DataOutputView out) throws IOException {
        out.writeByte(FORMAT);
        out.writeUTF(line.assetType());
        out.writeUTF(line.asset());
        BigDecSerializer.INSTANCE.serialize(line.amount(), out);
        out.writeBoolean(line.account() != null);
        if (line.account() != null) {
            out.writeUTF(line.account());
        }
    }

    @Override
    public TxnLine deserialize(DataInputView in) throws IOException {
        int format = in.readUnsignedByte();
        if (format != FORMAT && format != FORMAT_WITHOUT_ACCOUNT) {
            throw new IOException("unknown TxnLine format " + format + " (this build reads 1, 2)");
        }
        String assetType = in.readUTF();
        String asset = in.readUTF();
        BigDecimal amount = BigDecSerializer.readBigDecimal(in);
        if (amount == null) {
            throw new IOException("TxnLine without an amount");
        }
        String account = format == FORMAT && in.readBoolean() ? in.readUTF() : null;
        return new TxnLine(account, assetType, asset, amount);
    }

    @Override
    public TxnLine deserialize(TxnLine reuse, DataInputView in) throws IOException {
        return deserialize(in);
    }

    @Override
    public void copy(DataInputView in, DataOutputView out) throws IOException {
        serialize(deserialize(in), out);
    }

    @Override
    public TypeSerializerSnapshot<TxnLine> snapshotConfiguration() {
        return new Snapshot();
    }

    /** Restores {@link #INSTANCE}; the snapshot format version is the base class's. */
    public static final class Snapshot extends SimpleTypeSerializerSnapshot<TxnLine> {
        public Snapshot() {
            super(() -> INSTANCE);
        }
    }
}
