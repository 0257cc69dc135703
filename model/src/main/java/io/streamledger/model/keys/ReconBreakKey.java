package io.streamledger.model.keys;

import java.util.List;

/**
 * IDX14 (AP15) reconciliation discrepancy (break) authority within its batch: {@code
 * TEN#t#RECON#batchId / BREAK#id}. Shares the {@code TEN#t#RECON#} prefix with IDX13; the SK prefix
 * ({@code BREAK#} vs {@code BATCH#}) tells them apart.
 *
 * @param tenant {@code t}
 * @param batchId {@code batchId}
 * @param breakId {@code id}
 */
public record ReconBreakKey(String tenant, String batchId, String breakId) implements ItemKey {
    public ReconBreakKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("batchId", batchId);
        KeyComponents.require("id", breakId);
    }

    public static ReconBreakKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX14_PK.match(pk);
        List<String> s = KeyPaths.IDX14_SK.match(sk);
        return new ReconBreakKey(p.get(0), p.get(1), s.get(0));
    }

    @Override
    public String indexId() {
        return "IDX14";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX14_PK.build(tenant, batchId);
    }

    @Override
    public String sk() {
        return KeyPaths.IDX14_SK.build(breakId);
    }
}
