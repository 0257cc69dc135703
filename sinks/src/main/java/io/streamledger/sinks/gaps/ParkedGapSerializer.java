package io.streamledger.sinks.gaps;

import io.streamledger.operators.gate.ParkedGap;
import io.streamledger.operators.gate.ParkedGapChange;
import java.io.IOException;
import org.apache.flink.core.io.SimpleVersionedSerializer;
import org.apache.flink.core.memory.DataInputDeserializer;
import org.apache.flink.core.memory.DataOutputSerializer;

/**
 * Versioned serializer of a pending parked-gap transition in the committer's checkpointed state
 * (CS07); rejects versions it does not know.
 */
public final class ParkedGapSerializer implements SimpleVersionedSerializer<ParkedGap> {

    static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(ParkedGap g) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(128);
        out.writeUTF(g.getSourceKey());
        out.writeUTF(g.getChange().name());
        out.writeLong(g.getMissingVersion());
        out.writeLong(g.getSinceMillis());
        out.writeLong(g.getSlaDeadlineMillis());
        out.writeInt(g.getParkedCount());
        long[] versions = g.getParkedVersions();
        out.writeInt(versions.length);
        for (long v : versions) {
            out.writeLong(v);
        }
        out.writeBoolean(g.isOverdue());
        out.writeLong(g.getAtMillis());
        writeNullable(out, g.getActor());
        writeNullable(out, g.getNote());
        return out.getCopyOfBuffer();
    }

    @Override
    public ParkedGap deserialize(int version, byte[] bytes) throws IOException {
        if (version != VERSION) {
            throw new IOException("unknown parked-gap committable version " + version);
        }
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        String key = in.readUTF();
        ParkedGapChange change = ParkedGapChange.valueOf(in.readUTF());
        long missing = in.readLong();
        long since = in.readLong();
        long sla = in.readLong();
        int count = in.readInt();
        long[] versions = new long[in.readInt()];
        for (int k = 0; k < versions.length; k++) {
            versions[k] = in.readLong();
        }
        boolean overdue = in.readBoolean();
        long at = in.readLong();
        String actor = readNullable(in);
        String note = readNullable(in);
        return new ParkedGap(
                key, change, missing, since, sla, count, versions, overdue, at, actor, note);
    }

    private static void writeNullable(DataOutputSerializer out, String s) throws IOException {
        out.writeBoolean(s != null);
        if (s != null) {
            out.writeUTF(s);
        }
    }

    private static String readNullable(DataInputDeserializer in) throws IOException {
        return in.readBoolean() ? in.readUTF() : null;
    }
}
