package io.streamledger.model.table;

/** Which attributes a GSI projects (seed IDX02/03/05/06/15/17/19 "read consequence"). */
public enum GsiProjection {
    ALL,
    KEYS_ONLY,
    INCLUDE
}
