package io.streamledger.model.projection;

import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.table.Attr;

/**
 * The attribute names of the projection's rows (AP07 Portfolio view position IDX07, AP13 checkpoint
 * IDX12), written by the projection job and the backfill, read by the command service's portfolio
 * API and the namespace proof. A position row copies its AP12 authority's names from {@link
 * LedgerSchema}.
 */
public final class ProjectionSchema {

    // ---- both rows ----
    /** Guard attribute of both rows: the tracker's per-key revision. */
    public static final String REVISION = "revision";

    public static final String SOURCE_KEY = "sourceKey";
    public static final String SOURCE_VERSION = Attr.SOURCE_VERSION;
    public static final String GAP_OPEN = "gapOpen";
    public static final String PARKED = "parkedCount";
    public static final String PROJECTED_AT = "projectedAt";

    // ---- IDX07 position row: the authority it copies ----
    public static final String TENANT = LedgerSchema.TENANT;
    public static final String ACCOUNT = LedgerSchema.ACCOUNT;
    public static final String ASSET_TYPE = LedgerSchema.ASSET_TYPE;
    public static final String ASSET = LedgerSchema.ASSET;
    public static final String POSTED = LedgerSchema.POSTED;
    public static final String RESERVED = LedgerSchema.RESERVED;
    public static final String AVAILABLE = LedgerSchema.AVAILABLE;

    /** Always false: the view never authorizes money (AP07 vs AP12). */
    public static final String AUTHORITATIVE = "authoritative";

    /** Prefix of the IDX07 symbol for cash rows (no security symbol contains ':'). */
    public static final String CASH_SYMBOL_PREFIX = "CASH:";

    // ---- IDX12 checkpoint row ----
    public static final String PROJECTION = "projection";
    public static final String GAP_MISSING = "gapMissingVersion";
    public static final String GAP_SINCE = "gapSince";

    private ProjectionSchema() {}

    /** The IDX07 symbol of an authority's position row: the symbol, or CASH:currency. */
    public static String positionSymbol(AuthorityKey.Kind kind, String asset) {
        return kind == AuthorityKey.Kind.CASH ? CASH_SYMBOL_PREFIX + asset : asset;
    }
}
