package io.streamledger.sinks.versioned;

import io.streamledger.aws.items.AttributeValueCodec;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Collapses one flush's writes to one write per item (seed CS06/AP13: only the newest version can
 * win, so the older ones need not be sent): VERSION_GUARD keeps the highest version, CREATE_ONCE
 * the first write. Output keeps the order in which items first appear.
 */
public final class WriteCoalescer {

    /** The writes to send and how many input writes were dropped as superseded. */
    public static final class Result {
        private final List<VersionedWrite> writes;
        private final int superseded;

        Result(List<VersionedWrite> writes, int superseded) {
            this.writes = writes;
            this.superseded = superseded;
        }

        public List<VersionedWrite> writes() {
            return writes;
        }

        public int superseded() {
            return superseded;
        }
    }

    private WriteCoalescer() {}

    public static Result coalesce(List<VersionedWrite> batch, GuardStrategy strategy) {
        Map<ItemId, VersionedWrite> winners = new LinkedHashMap<>();
        for (VersionedWrite write : batch) {
            winners.merge(
                    ItemId.of(write), write, (held, incoming) -> pick(held, incoming, strategy));
        }
        return new Result(new ArrayList<>(winners.values()), batch.size() - winners.size());
    }

    private static VersionedWrite pick(
            VersionedWrite held, VersionedWrite incoming, GuardStrategy strategy) {
        if (strategy == GuardStrategy.CREATE_ONCE) {
            return held; // the table would keep the first, so the batch does too
        }
        // Equal versions describe the same state; keep the held one (stable order).
        return incoming.sourceVersion() > held.sourceVersion() ? incoming : held;
    }

    /** Identity of a DynamoDB item: table plus the canonical bytes of its key. */
    static final class ItemId {
        private final String table;
        private final ByteBuffer key;

        private ItemId(String table, ByteBuffer key) {
            this.table = table;
            this.key = key;
        }

        static ItemId of(VersionedWrite write) {
            // key() is name-ordered, so equal keys encode to equal bytes
            ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
            try (DataOutputStream out = new DataOutputStream(bytes)) {
                AttributeValueCodec.writeMap(write.key(), out);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot encode key of " + write, e);
            }
            return new ItemId(write.tableName(), ByteBuffer.wrap(bytes.toByteArray()));
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof ItemId)) {
                return false;
            }
            ItemId that = (ItemId) o;
            return table.equals(that.table) && key.equals(that.key);
        }

        @Override
        public int hashCode() {
            return 31 * table.hashCode() + key.hashCode();
        }
    }
}
