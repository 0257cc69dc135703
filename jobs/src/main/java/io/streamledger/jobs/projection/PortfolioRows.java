package io.streamledger.jobs.projection;

import io.streamledger.model.keys.CheckpointKey;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.shard.ShardAssignment;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.projection.AuthoritySnapshot;
import io.streamledger.operators.projection.ProjectionUpdate;
import io.streamledger.sinks.versioned.VersionedWrite;
import io.streamledger.sinks.versioned.WriteGuard;
import java.io.Serializable;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The rows the projection writes (AP07, AP13): the Portfolio view position (IDX07 {@code
 * TEN#t#ACCT#a / POS#symbol}, cash as {@code POS#CASH:ccy}) and the projection checkpoint (IDX12
 * {@code PROJ#name#V#v#SHARD#h(sourceKey)%7 / SOURCE#key}), both guarded on {@link #REVISION} so a
 * replay or an old savepoint never moves them backwards.
 *
 * <p><b>The Portfolio view never authorizes anything (AP07 vs AP12).</b> It is an eventually
 * consistent, rebuildable copy that carries its {@code sourceVersion} and {@code gapOpen} so a
 * reader sees how current it is. Cash, securities and reservations used to admit an order or
 * release money are read from the AP12 authority items in the Ledger table, never from here.
 */
public final class PortfolioRows implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Guard attribute of both rows: the tracker's per-key revision. */
    public static final String REVISION = "revision";

    /** Prefix of the IDX07 symbol for cash rows (no security symbol contains ':'). */
    public static final String CASH_SYMBOL_PREFIX = "CASH:";

    public static final String GAP_OPEN = "gapOpen";
    public static final String GAP_MISSING = "gapMissingVersion";
    public static final String GAP_SINCE = "gapSince";
    public static final String PARKED = "parkedCount";
    public static final String SOURCE_KEY = "sourceKey";
    public static final String PROJECTED_AT = "projectedAt";
    public static final String AUTHORITATIVE = "authoritative";

    public static final WriteGuard GUARD = WriteGuard.versionGuard(Attr.PK, REVISION);

    private final String portfolioTable;
    private final String projectionTable;
    private final String projectionName;

    public PortfolioRows(String portfolioTable, String projectionTable, String projectionName) {
        this.portfolioTable = portfolioTable;
        this.projectionTable = projectionTable;
        this.projectionName = projectionName;
    }

    /** The IDX07 key of an authority's view row. */
    public static PositionKey positionKey(AuthoritySnapshot a) {
        String symbol = "CASH".equals(a.assetType()) ? CASH_SYMBOL_PREFIX + a.asset() : a.asset();
        return new PositionKey(a.tenant(), a.accountId(), symbol);
    }

    /** The view row of an update that has applied at least one version. */
    public VersionedWrite viewRow(ProjectionUpdate u) {
        AuthoritySnapshot a = AuthoritySnapshot.fromJson(u.getPayload());
        PositionKey key = positionKey(a);
        Map<String, AttributeValue> attrs = new HashMap<>();
        attrs.put("tenant", s(a.tenant()));
        attrs.put("accountId", s(a.accountId()));
        attrs.put("assetType", s(a.assetType()));
        attrs.put("asset", s(a.asset()));
        attrs.put("posted", n(a.posted().toPlainString()));
        attrs.put("reserved", n(a.reserved().toPlainString()));
        attrs.put("available", n(a.available().toPlainString()));
        attrs.put(Attr.SOURCE_VERSION, n(Long.toString(u.getLastVersion())));
        attrs.put(SOURCE_KEY, s(u.getSourceKey()));
        attrs.put(GAP_OPEN, AttributeValue.fromBool(u.isGapOpen()));
        attrs.put(PARKED, n(Integer.toString(u.getParkedCount())));
        attrs.put(PROJECTED_AT, s(Instant.now().toString()));
        attrs.put(AUTHORITATIVE, AttributeValue.fromBool(false));
        return VersionedWrite.of(
                portfolioTable,
                Map.of(Attr.PK, s(key.pk()), Attr.SK, s(key.sk())),
                attrs,
                u.getRevision());
    }

    /** The IDX12 checkpoint row of a source key. */
    public VersionedWrite checkpointRow(ProjectionUpdate u) {
        ShardMap map = ShardMap.PROJECTION_CHECKPOINTS;
        ShardAssignment shard = map.assign(u.getSourceKey());
        CheckpointKey key = CheckpointKey.forSource(projectionName, u.getSourceKey(), map);
        Map<String, AttributeValue> attrs = new HashMap<>();
        attrs.put("projection", s(projectionName));
        attrs.put(SOURCE_KEY, s(u.getSourceKey()));
        attrs.put(Attr.SOURCE_VERSION, n(Long.toString(u.getLastVersion())));
        attrs.put(GAP_OPEN, AttributeValue.fromBool(u.isGapOpen()));
        attrs.put(GAP_MISSING, n(Long.toString(u.getGapMissingVersion())));
        attrs.put(GAP_SINCE, n(Long.toString(u.getGapSinceMillis())));
        attrs.put(PARKED, n(Integer.toString(u.getParkedCount())));
        attrs.put(Attr.HASH_VERSION, n(Integer.toString(shard.hashVersion())));
        attrs.put(Attr.SHARD_MAP_VERSION, n(Integer.toString(shard.shardMapVersion())));
        attrs.put(PROJECTED_AT, s(Instant.now().toString()));
        return VersionedWrite.of(
                projectionTable,
                Map.of(Attr.PK, s(key.pk()), Attr.SK, s(key.sk())),
                attrs,
                u.getRevision());
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(String v) {
        return AttributeValue.fromN(v);
    }
}
