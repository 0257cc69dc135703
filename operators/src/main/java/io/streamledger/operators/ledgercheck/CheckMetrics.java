package io.streamledger.operators.ledgercheck;

import java.util.EnumMap;
import java.util.Map;
import org.apache.flink.metrics.Counter;
import org.apache.flink.metrics.MetricGroup;

/**
 * The Flink-UI metrics of one ledger check: checks evaluated, duplicates ignored, and breaks
 * emitted per reason (group {@code ledgercheck}, counter {@code breaks.<REASON>}).
 */
final class CheckMetrics {

    private final Counter evaluated;
    private final Counter duplicates;
    private final Map<LedgerCheckReason, Counter> breaks = new EnumMap<>(LedgerCheckReason.class);

    CheckMetrics(MetricGroup parent) {
        MetricGroup g = parent.addGroup("ledgercheck");
        evaluated = g.counter("checksEvaluated");
        duplicates = g.counter("duplicatesIgnored");
        MetricGroup b = g.addGroup("breaks");
        for (LedgerCheckReason r : LedgerCheckReason.values()) {
            breaks.put(r, b.counter(r.name()));
        }
    }

    void evaluated() {
        evaluated.inc();
    }

    void duplicate() {
        duplicates.inc();
    }

    void broke(LedgerCheckReason reason) {
        breaks.get(reason).inc();
    }

    long breaks(LedgerCheckReason reason) {
        return breaks.get(reason).getCount();
    }

    long evaluatedCount() {
        return evaluated.getCount();
    }
}
