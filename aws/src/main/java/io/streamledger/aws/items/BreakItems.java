package io.streamledger.aws.items;

import io.streamledger.model.keys.BreakDueKey;
import io.streamledger.model.keys.KeyTime;
import io.streamledger.model.keys.ReconBreakKey;
import io.streamledger.model.shard.ShardHash;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The AP15 break item (IDX14 {@code TEN#t#RECON#batchId / BREAK#id}) with its sparse due-queue
 * membership (IDX15 GSI1 {@code TEN#t#BREAK#status#shard / DUE#at#batch#id}): the one codec the
 * break sinks write and the finance-ops repository reads and updates.
 *
 * <p>Shard = {@link ShardHash} (hash version 1) of {@code batchId/breakId} modulo {@link
 * #DUE_SHARDS}; the hash and shard-map versions are stored on the item (seed shard contract).
 */
public final class BreakItems {

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

    /** A break as detected: what the sinks store at version 1 (OPEN, in the due queue). */
    public record NewBreak(
            String tenant,
            String batchId,
            String breakId,
            String reason,
            String origin,
            String subject,
            String owner,
            Instant detectedAt,
            Instant dueAt,
            String evidence) {}

    private BreakItems() {}

    public static int shardOf(String batchId, String breakId) {
        return ShardHash.shard(batchId + "/" + breakId, DUE_SHARDS);
    }

    /** The IDX14 base-item key. */
    public static Map<String, AttributeValue> key(ReconBreakKey k) {
        return Map.of(Attr.PK, AttributeValue.fromS(k.pk()), Attr.SK, AttributeValue.fromS(k.sk()));
    }

    public static Map<String, AttributeValue> key(String tenant, String batchId, String breakId) {
        return key(new ReconBreakKey(tenant, batchId, breakId));
    }

    /** The non-key attributes of a new OPEN break, including its IDX15 due-queue keys. */
    public static Map<String, AttributeValue> attributes(NewBreak b) {
        int shard = shardOf(b.batchId(), b.breakId());
        BreakDueKey dueKey =
                new BreakDueKey(
                        b.tenant(),
                        BreakStatus.OPEN.name(),
                        shard,
                        b.dueAt(),
                        b.batchId(),
                        b.breakId());
        Map<String, AttributeValue> a = new HashMap<>();
        a.put(Attr.ENTITY_TYPE, Av.s(ENTITY));
        a.put(A_TENANT, Av.s(b.tenant()));
        a.put(A_BATCH, Av.s(b.batchId()));
        a.put(A_BREAK, Av.s(b.breakId()));
        a.put(A_REASON, Av.s(b.reason()));
        a.put(A_ORIGIN, Av.s(b.origin()));
        a.put(A_SUBJECT, Av.s(b.subject()));
        a.put(A_STATUS, Av.s(BreakStatus.OPEN.name()));
        a.put(A_OWNER, Av.s(b.owner()));
        a.put(A_DETECTED, Av.s(KeyTime.format(b.detectedAt())));
        a.put(A_DUE, Av.s(KeyTime.format(b.dueAt())));
        a.put(A_SHARD, Av.n(shard));
        a.put(Attr.HASH_VERSION, Av.n(ShardHash.HASH_VERSION));
        a.put(Attr.SHARD_MAP_VERSION, Av.n(SHARD_MAP_VERSION));
        a.put(A_EVIDENCE, Av.s(b.evidence()));
        a.put(Attr.GSI1PK, Av.s(dueKey.pk()));
        a.put(Attr.GSI1SK, Av.s(dueKey.sk()));
        return a;
    }

    /** Decodes a stored break item (base item, strong read or a write's returned image). */
    public static BreakView view(Map<String, AttributeValue> i) {
        return new BreakView(
                Av.str(i, A_TENANT),
                Av.str(i, A_BATCH),
                Av.str(i, A_BREAK),
                Av.str(i, A_REASON),
                Av.str(i, A_ORIGIN),
                Av.str(i, A_SUBJECT),
                BreakStatus.valueOf(Av.reqStr(i, A_STATUS)),
                Av.str(i, A_OWNER),
                Av.str(i, A_DETECTED),
                Av.str(i, A_DUE),
                Long.parseLong(i.get(Attr.VERSION).n()),
                Av.str(i, A_EVIDENCE),
                Av.str(i, A_RESOLVED_BY),
                Av.str(i, A_RESOLVED_AT),
                Av.str(i, A_RESOLUTION));
    }
}
