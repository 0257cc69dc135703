package io.streamledger.model.keys;

/**
 * A typed primary key (or GSI key) of one IDX path: the PK and SK strings exactly as the seed's key
 * table writes them.
 */
public interface ItemKey {
    /** Seed path id, e.g. {@code IDX01}. */
    String indexId();

    /** Partition-key string (base PK or the GSI's partition attribute). */
    String pk();

    /** Sort-key string (base SK or the GSI's sort attribute). */
    String sk();
}
