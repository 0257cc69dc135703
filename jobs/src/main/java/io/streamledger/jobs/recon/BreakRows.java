package io.streamledger.jobs.recon;

import io.streamledger.model.keys.BreakDueKey;
import io.streamledger.model.keys.KeyTime;
import io.streamledger.model.keys.ReconBreakKey;
import io.streamledger.model.shard.ShardHash;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.sinks.versioned.VersionedWrite;
import io.streamledger.sinks.versioned.WriteGuard;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The AP15 break item (IDX14 {@code TEN#t#RECON#batchId / BREAK#id}) with its sparse due-queue
 * membership (IDX15 GSI1 {@code TEN#t#BREAK#status#shard / DUE#at#batch#id}): one definition of the
 * attribute names used by the break sink, the repository and the CLI.
 *
 * <p>Shard = {@link ShardHash} (hash version 1) of {@code batchId/breakId} modulo {@link
 * #DUE_SHARDS}; the hash and shard-map versions are stored on the item (seed shard contract).
 */
public final class BreakRows implements Serializable {

    private static final long serialVersionUID = 1L;

    /** Status shards of the due queue; a listing fans out over all of them. */
    public static final int DUE_SHARDS = 4;

    /** Version of the (single) shard map of the due queue. */
    public static final int SHARD_MAP_VERSION = 1;

    public static final String ENTITY = "BREAK";
    public static final String A_TENANT = "tenant";
    public static final String A_BATCH = "batchId";
    public static final String A_BREAK = "breakId";
    public static final String A_REASON = "reason";
    public static final String A_ORIGIN = "origin";
    public static final String A_SUBJECT = "subject";
    public static final String A_STATUS = Attr.STATUS;
    public static final String A_OWNER = "owner";
    public static final String A_DETECTED = "detectedAt";
    public static final String A_DUE = "dueAt";
    public static final String A_SHARD = "shard";
    public static final String A_EVIDENCE = "evidence";
    public static final String A_RESOLVED_BY = "resolvedBy";
    public static final String A_RESOLVED_AT = "resolvedAt";
    public static final String A_RESOLUTION = "resolutionEvidence";
    public static final String A_ESCALATED_AT = "escalatedAt";

    /** Create-once: the first write of a deterministic id wins, repeats are counted no-ops. */
    public static final WriteGuard GUARD = WriteGuard.createOnce(Attr.PK, Attr.VERSION);

    private final String table;
    private final String owner;
    private final long dueAfterMillis;

    /**
     * @param table physical Reconciliation table
     * @param owner team that owns new breaks, e.g. {@code finance-ops}
     * @param dueAfter time from detection to due
     */
    public BreakRows(String table, String owner, Duration dueAfter) {
        this.table = table;
        this.owner = owner;
        this.dueAfterMillis = dueAfter.toMillis();
    }

    public String table() {
        return table;
    }

    public static int shardOf(String batchId, String breakId) {
        return ShardHash.shard(batchId + "/" + breakId, DUE_SHARDS);
    }

    /** The create-once write of a new OPEN break at version 1. */
    public VersionedWrite newBreak(BreakRecord b) {
        ReconBreakKey key = new ReconBreakKey(b.getTenant(), b.getBatchId(), b.getBreakId());
        Instant detected = Instant.ofEpochMilli(b.getDetectedAtMillis());
        Instant due = detected.plusMillis(dueAfterMillis);
        int shard = shardOf(b.getBatchId(), b.getBreakId());
        BreakDueKey dueKey =
                new BreakDueKey(
                        b.getTenant(),
                        BreakStatus.OPEN.name(),
                        shard,
                        due,
                        b.getBatchId(),
                        b.getBreakId());
        Map<String, AttributeValue> a = new HashMap<>();
        a.put(Attr.ENTITY_TYPE, s(ENTITY));
        a.put(A_TENANT, s(b.getTenant()));
        a.put(A_BATCH, s(b.getBatchId()));
        a.put(A_BREAK, s(b.getBreakId()));
        a.put(A_REASON, s(b.getReason()));
        a.put(A_ORIGIN, s(b.getOrigin().name()));
        a.put(A_SUBJECT, s(b.getSubject()));
        a.put(A_STATUS, s(BreakStatus.OPEN.name()));
        a.put(A_OWNER, s(owner));
        a.put(A_DETECTED, s(KeyTime.format(detected)));
        a.put(A_DUE, s(KeyTime.format(due)));
        a.put(A_SHARD, n(shard));
        a.put(Attr.HASH_VERSION, n(ShardHash.HASH_VERSION));
        a.put(Attr.SHARD_MAP_VERSION, n(SHARD_MAP_VERSION));
        a.put(A_EVIDENCE, s(b.getEvidence()));
        a.put(Attr.GSI1PK, s(dueKey.pk()));
        a.put(Attr.GSI1SK, s(dueKey.sk()));
        return VersionedWrite.of(table, Map.of(Attr.PK, s(key.pk()), Attr.SK, s(key.sk())), a, 1L);
    }

    static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    static AttributeValue n(long v) {
        return AttributeValue.fromN(Long.toString(v));
    }
}
