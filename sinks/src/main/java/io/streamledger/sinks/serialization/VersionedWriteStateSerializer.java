package io.streamledger.sinks.serialization;

import io.streamledger.aws.items.AttributeValueCodec;
import io.streamledger.sinks.versioned.ExtraCondition;
import io.streamledger.sinks.versioned.VersionedWrite;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.flink.connector.base.sink.writer.AsyncSinkWriterStateSerializer;
import org.apache.flink.connector.base.sink.writer.BufferedRequestState;

/**
 * Checkpoint form of the versioned sink's buffered writes (seed AP13 replay safety): a serializer
 * version checked on read plus a format byte per entry, both rejecting unknown values.
 */
public final class VersionedWriteStateSerializer
        extends AsyncSinkWriterStateSerializer<VersionedWrite> {

    /** Version of the whole buffered-state blob (SimpleVersionedSerializer contract). */
    public static final int STATE_VERSION = 1;

    /** Format byte written before each entry; bump when the entry layout changes. */
    static final byte ENTRY_FORMAT_V1 = 1;

    @Override
    public int getVersion() {
        return STATE_VERSION;
    }

    @Override
    public BufferedRequestState<VersionedWrite> deserialize(int version, byte[] serialized)
            throws IOException {
        if (version != STATE_VERSION) {
            throw new IOException(
                    "unknown versioned-sink state version "
                            + version
                            + " (this build reads "
                            + STATE_VERSION
                            + ")");
        }
        return super.deserialize(version, serialized);
    }

    @Override
    protected void serializeRequestToStream(VersionedWrite write, DataOutputStream out)
            throws IOException {
        out.writeByte(ENTRY_FORMAT_V1);
        AttributeValueCodec.writeString(write.tableName(), out);
        AttributeValueCodec.writeMap(write.key(), out);
        AttributeValueCodec.writeMap(write.attributes(), out);
        out.writeLong(write.sourceVersion());
        ExtraCondition extra = write.extraCondition();
        out.writeBoolean(extra != null);
        if (extra != null) {
            AttributeValueCodec.writeString(extra.expression(), out);
            out.writeInt(extra.names().size());
            for (Map.Entry<String, String> e : extra.names().entrySet()) {
                AttributeValueCodec.writeString(e.getKey(), out);
                AttributeValueCodec.writeString(e.getValue(), out);
            }
            AttributeValueCodec.writeMap(extra.values(), out);
        }
    }

    @Override
    protected VersionedWrite deserializeRequestFromStream(long requestSize, DataInputStream in)
            throws IOException {
        byte format = in.readByte();
        if (format != ENTRY_FORMAT_V1) {
            throw new IOException("unknown VersionedWrite entry format " + format);
        }
        String table = AttributeValueCodec.readString(in);
        var key = AttributeValueCodec.readMap(in);
        var attributes = AttributeValueCodec.readMap(in);
        long version = in.readLong();
        ExtraCondition extra = null;
        if (in.readBoolean()) {
            String expression = AttributeValueCodec.readString(in);
            int n = in.readInt();
            if (n < 0 || n > 10_000) {
                throw new IOException("corrupt extra-condition name count " + n);
            }
            Map<String, String> names = new LinkedHashMap<>();
            for (int i = 0; i < n; i++) {
                names.put(AttributeValueCodec.readString(in), AttributeValueCodec.readString(in));
            }
            extra = ExtraCondition.of(expression, names, AttributeValueCodec.readMap(in));
        }
        try {
            return VersionedWrite.of(table, key, attributes, version, extra);
        } catch (IllegalArgumentException e) {
            throw new IOException("corrupt VersionedWrite in sink state: " + e.getMessage(), e);
        }
    }
}
