package io.streamledger.model.table;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * The single definition of one bounded-context table (seed "Key and index design"; DESIGN
 * "Tables"): used by the command service, the jobs and the local endpoint provisioning.
 *
 * @param logicalName table name without prefix or version, e.g. {@code Orders}
 * @param keySchema base key attributes
 * @param gsis global secondary indexes
 * @param streamViewType stream view, or null when the table has no stream
 * @param ttlAttribute TTL attribute (cleanup only), or null
 * @param baseIndexIds seed paths served by the base key, e.g. {@code [IDX01, IDX18]}
 * @param streamReason why this stream view (or none) was chosen
 * @param versioned true when one physical table exists per namespace version ({@code Portfolio_v3})
 */
public record TableSpec(
        String logicalName,
        KeySchema keySchema,
        List<GsiSpec> gsis,
        @Nullable StreamViewType streamViewType,
        @Nullable String ttlAttribute,
        List<String> baseIndexIds,
        String streamReason,
        boolean versioned) {
    public TableSpec {
        Objects.requireNonNull(logicalName, "logicalName");
        Objects.requireNonNull(keySchema, "keySchema");
        Objects.requireNonNull(streamReason, "streamReason");
        gsis = List.copyOf(gsis);
        baseIndexIds = List.copyOf(baseIndexIds);
        if (gsis.stream().map(GsiSpec::indexName).distinct().count() != gsis.size()) {
            throw new IllegalArgumentException(logicalName + ": duplicate GSI names");
        }
    }

    /** The GSI with this name, if any. */
    public Optional<GsiSpec> gsi(String indexName) {
        return gsis.stream().filter(g -> g.indexName().equals(indexName)).findFirst();
    }

    /** Every seed path this table serves, base first then GSIs. */
    public List<String> indexIds() {
        java.util.ArrayList<String> ids = new java.util.ArrayList<>(baseIndexIds);
        gsis.forEach(g -> ids.add(g.indexId()));
        return List.copyOf(ids);
    }

    /**
     * Every key attribute of the table and its GSIs, base first, without duplicates: the attribute
     * definitions (all type {@code S}) a CreateTable call needs.
     */
    public List<String> keyAttributes() {
        java.util.LinkedHashSet<String> names = new java.util.LinkedHashSet<>();
        names.add(keySchema.partitionKey());
        names.add(keySchema.sortKey());
        gsis.forEach(
                g -> {
                    names.add(g.pkAttr());
                    names.add(g.skAttr());
                });
        return List.copyOf(names);
    }

    /** True when DynamoDB Streams is enabled for this table. */
    public boolean hasStream() {
        return streamViewType != null;
    }
}
