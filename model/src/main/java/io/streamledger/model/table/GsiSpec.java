package io.streamledger.model.table;

import java.util.List;
import java.util.Objects;

/**
 * One global secondary index of a {@link TableSpec} (seed IDX02, IDX03, IDX05, IDX06, IDX15, IDX17,
 * IDX19): name, key attributes (both type S), projection and whether it is sparse (the writer sets
 * the key attributes only on the items that belong to the index).
 *
 * @param indexName e.g. {@code GSI1}
 * @param pkAttr partition-key attribute, e.g. {@code GSI1PK}
 * @param skAttr sort-key attribute, e.g. {@code GSI1SK}
 * @param projection ALL, KEYS_ONLY or INCLUDE
 * @param nonKeyAttributes attributes projected with INCLUDE (empty otherwise)
 * @param sparse true when only some items carry the key attributes
 * @param indexId seed path id served, e.g. {@code IDX02}
 */
public record GsiSpec(
        String indexName,
        String pkAttr,
        String skAttr,
        GsiProjection projection,
        List<String> nonKeyAttributes,
        boolean sparse,
        String indexId) {
    public GsiSpec {
        Objects.requireNonNull(indexName, "indexName");
        Objects.requireNonNull(pkAttr, "pkAttr");
        Objects.requireNonNull(skAttr, "skAttr");
        Objects.requireNonNull(projection, "projection");
        Objects.requireNonNull(indexId, "indexId");
        nonKeyAttributes = List.copyOf(nonKeyAttributes);
        if ((projection == GsiProjection.INCLUDE) == nonKeyAttributes.isEmpty()) {
            throw new IllegalArgumentException(
                    indexName + ": INCLUDE needs non-key attributes, other projections none");
        }
    }
}
