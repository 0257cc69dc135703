package io.streamledger.jobs.projection;

import io.streamledger.aws.shard.ShardMapSource;
import io.streamledger.model.keys.CheckpointKey;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.projection.ProjectionSchema;
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
 * {@code PROJ#name#V#v#SHARD#h(sourceKey)%7 / SOURCE#key}), both guarded on {@link
 * ProjectionSchema#REVISION} so a replay or an old savepoint never moves them backwards.
 *
 * <p><b>The Portfolio view never authorizes anything (AP07 vs AP12).</b> It is an eventually
 * consistent, rebuildable copy that carries its {@code sourceVersion} and {@code gapOpen} so a
 * reader sees how current it is. Cash, securities and reservations used to admit an order or
 * release money are read from the AP12 authority items in the Ledger table, never from here.
 */
public final class PortfolioRows implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final WriteGuard GUARD =
            WriteGuard.versionGuard(Attr.PK, ProjectionSchema.REVISION);

    /** SDK attribute values are immutable: the constant ones are built once, not per row. */
    private static final AttributeValue NOT_AUTHORITATIVE = AttributeValue.fromBool(false);

    private final String portfolioTable;
    private final String projectionTable;
    private final String projectionName;
    private final ShardMapSource checkpointMaps;

    public PortfolioRows(String portfolioTable, String projectionTable, String projectionName) {
        this(
                portfolioTable,
                projectionTable,
                projectionName,
                ShardMapSource.fixed(ShardMap.PROJECTION_CHECKPOINTS));
    }

    /** Rows whose checkpoint keys follow the durable checkpoint shard map (AP13 reshard). */
    public PortfolioRows(
            String portfolioTable,
            String projectionTable,
            String projectionName,
            ShardMapSource checkpointMaps) {
        this.portfolioTable = portfolioTable;
        this.projectionTable = projectionTable;
        this.projectionName = projectionName;
        this.checkpointMaps = checkpointMaps;
    }

    /** The IDX07 key of an authority's view row. */
    public static PositionKey positionKey(AuthoritySnapshot a) {
        return new PositionKey(
                a.tenant(),
                a.accountId(),
                ProjectionSchema.positionSymbol(a.assetType(), a.asset()));
    }

    /** The view row of an update that has applied at least one version. */
    public VersionedWrite viewRow(ProjectionUpdate u) {
        AuthoritySnapshot a = AuthoritySnapshot.fromJson(u.getPayload());
        PositionKey key = positionKey(a);
        Map<String, AttributeValue> attrs = new HashMap<>(32);
        attrs.put(ProjectionSchema.TENANT, s(a.tenant()));
        attrs.put(ProjectionSchema.ACCOUNT, s(a.accountId()));
        attrs.put(ProjectionSchema.ASSET_TYPE, s(a.assetType().name()));
        attrs.put(ProjectionSchema.ASSET, s(a.asset()));
        attrs.put(ProjectionSchema.POSTED, n(a.posted().toPlainString()));
        attrs.put(ProjectionSchema.RESERVED, n(a.reserved().toPlainString()));
        attrs.put(ProjectionSchema.AVAILABLE, n(a.available().toPlainString()));
        attrs.put(ProjectionSchema.SOURCE_VERSION, n(Long.toString(u.getLastVersion())));
        attrs.put(ProjectionSchema.SOURCE_KEY, s(u.getSourceKey()));
        attrs.put(ProjectionSchema.GAP_OPEN, AttributeValue.fromBool(u.isGapOpen()));
        attrs.put(ProjectionSchema.PARKED, n(Integer.toString(u.getParkedCount())));
        attrs.put(ProjectionSchema.PROJECTED_AT, s(Instant.now().toString()));
        attrs.put(ProjectionSchema.AUTHORITATIVE, NOT_AUTHORITATIVE);
        return VersionedWrite.of(
                portfolioTable,
                Map.of(Attr.PK, s(key.pk()), Attr.SK, s(key.sk())),
                attrs,
                u.getRevision());
    }

    /**
     * The IDX12 checkpoint row of a source key, under the shard-map version its source event time
     * routes to (so a replayed update keeps its version during a reshard).
     */
    public VersionedWrite checkpointRow(ProjectionUpdate u) {
        ShardMap map = checkpointMaps.get().route(u.getEventTimeMillis());
        ShardAssignment shard = map.assign(u.getSourceKey());
        // the key from the same assignment: one SHA-256 of the source key per row, not two
        CheckpointKey key =
                new CheckpointKey(
                        projectionName, map.shardMapVersion(), shard.shard(), u.getSourceKey());
        Map<String, AttributeValue> attrs = new HashMap<>(32);
        attrs.put(ProjectionSchema.PROJECTION, s(projectionName));
        attrs.put(ProjectionSchema.SOURCE_KEY, s(u.getSourceKey()));
        attrs.put(ProjectionSchema.SOURCE_VERSION, n(Long.toString(u.getLastVersion())));
        attrs.put(ProjectionSchema.GAP_OPEN, AttributeValue.fromBool(u.isGapOpen()));
        attrs.put(ProjectionSchema.GAP_MISSING, n(Long.toString(u.getGapMissingVersion())));
        attrs.put(ProjectionSchema.GAP_SINCE, n(Long.toString(u.getGapSinceMillis())));
        attrs.put(ProjectionSchema.PARKED, n(Integer.toString(u.getParkedCount())));
        attrs.put(Attr.HASH_VERSION, n(Integer.toString(shard.hashVersion())));
        attrs.put(Attr.SHARD_MAP_VERSION, n(Integer.toString(shard.shardMapVersion())));
        attrs.put(ProjectionSchema.PROJECTED_AT, s(Instant.now().toString()));
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
