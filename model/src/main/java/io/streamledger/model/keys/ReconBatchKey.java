package io.streamledger.model.keys;

import java.time.LocalDate;
import java.util.List;

/**
 * IDX13 (AP14) reconciliation batch listed by business date: {@code TEN#t#RECON#date /
 * BATCH#batchId}; {@code date} is ISO {@code yyyy-MM-dd}.
 *
 * @param tenant {@code t}
 * @param date business {@code date}
 * @param batchId {@code batchId}
 */
public record ReconBatchKey(String tenant, LocalDate date, String batchId) implements ItemKey {
    public ReconBatchKey {
        KeyComponents.require("t", tenant);
        KeyFields.date(date);
        KeyComponents.require("batchId", batchId);
    }

    public static ReconBatchKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX13_PK.match(pk);
        List<String> s = KeyPaths.IDX13_SK.match(sk);
        return new ReconBatchKey(p.get(0), KeyFields.parseDate(p.get(1)), s.get(0));
    }

    @Override
    public String indexId() {
        return "IDX13";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX13_PK.build(tenant, KeyFields.date(date));
    }

    @Override
    public String sk() {
        return KeyPaths.IDX13_SK.build(batchId);
    }
}
