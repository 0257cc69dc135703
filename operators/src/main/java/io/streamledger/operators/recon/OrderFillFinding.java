package io.streamledger.operators.recon;

import java.util.Map;
import java.util.TreeMap;

/**
 * An order ↔ fill violation found by {@link OrderFillRules} (CS04, AP15), on its way into the
 * window of its subject's business time, where it becomes a break of that window's batch. A Flink
 * POJO (arrays, no generic collections).
 */
public class OrderFillFinding {

    /** A {@link ReconReason} name. */
    public String reason;

    public String subject;

    /** The parts of the break id after the reason. */
    public String[] idParts;

    /** Evidence fields in name order, values as exact strings. */
    public String[] evidenceNames;

    public String[] evidenceValues;

    public OrderFillFinding() {}

    static OrderFillFinding of(
            ReconReason reason, String subject, Map<String, String> evidence, String... idParts) {
        OrderFillFinding f = new OrderFillFinding();
        f.reason = reason.name();
        f.subject = subject;
        f.idParts = idParts;
        TreeMap<String, String> sorted = new TreeMap<>(evidence);
        f.evidenceNames = sorted.keySet().toArray(String[]::new);
        f.evidenceValues = sorted.values().toArray(String[]::new);
        return f;
    }

    public ReconReason reason() {
        return ReconReason.valueOf(reason);
    }

    /** The break id within its batch: reason and id parts. */
    public String breakId() {
        Object[] parts = new Object[idParts.length + 1];
        parts[0] = reason;
        System.arraycopy(idParts, 0, parts, 1, idParts.length);
        return BreakRecord.id(parts);
    }

    Evidence evidence() {
        Evidence e = Evidence.of();
        for (int i = 0; i < evidenceNames.length; i++) {
            e.put(evidenceNames[i], evidenceValues[i]);
        }
        return e;
    }

    @Override
    public String toString() {
        return breakId();
    }
}
