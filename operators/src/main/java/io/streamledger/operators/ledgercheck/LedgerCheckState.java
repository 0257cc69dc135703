package io.streamledger.operators.ledgercheck;

import io.streamledger.operators.recon.BreakRecord;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.common.typeutils.base.IntSerializer;
import org.apache.flink.util.OutputTag;

/**
 * The ledger checks' wire contract in one place (CS11, AP15): operator uids and names, keyed-state
 * descriptors with explicit types. Renaming a uid or a state name orphans savepoint state.
 */
public final class LedgerCheckState {

    public static final TypeInformation<LedgerFact> FACT = Types.POJO(LedgerFact.class);
    public static final TypeInformation<BreakRecord> BREAK = Types.POJO(BreakRecord.class);
    public static final TypeInformation<TxnProgress> TXN_PROGRESS = Types.POJO(TxnProgress.class);
    public static final TypeInformation<TxnControl> TXN_CONTROL = Types.POJO(TxnControl.class);

    /**
     * The balance check's per account+asset totals of each decided transaction, to the authority
     * check (the control total compares an authority version with a complete transaction).
     */
    public static final OutputTag<LedgerFact> TXN_TOTALS = new OutputTag<>("txn-totals", FACT);

    // ---- operator uids (stable) and names ----
    public static final String ROW_CHECK_UID = "ledgercheck-posting-rows-v1";
    public static final String ROW_CHECK_NAME = "ledger check: immutable postings, month limit";
    public static final String TXN_CHECK_UID = "ledgercheck-txn-balance-v1";
    public static final String TXN_CHECK_NAME = "ledger check: balanced per currency (per txn)";
    public static final String AUTHORITY_CHECK_UID = "ledgercheck-authority-v1";
    public static final String AUTHORITY_CHECK_NAME =
            "ledger check: authority versions, control total, available";
    public static final String BREAK_METRICS_UID = "ledgercheck-break-metrics-v1";

    // ---- TransactionBalanceCheck, keyed by tenant/txnId ----
    /** line number → the line (asset + exact amount). */
    public static final MapStateDescriptor<Integer, TxnLine> TXN_LINES =
            new MapStateDescriptor<>(
                    "txn-lines-v2", IntSerializer.INSTANCE, TxnLineSerializer.INSTANCE);

    /**
     * The lines as written before {@link #TXN_LINES}: line number → {@code assetType:asset|amount}.
     * Restored from old savepoints and drained into {@link #TXN_LINES} by the key's next element or
     * timer; every key with lines has a timer, so it is empty one transaction SLA after a restore.
     */
    public static final MapStateDescriptor<Integer, String> LEGACY_TXN_LINES =
            new MapStateDescriptor<>("txn-lines", Types.INT, Types.STRING);

    public static final ValueStateDescriptor<TxnProgress> TXN_STATE =
            new ValueStateDescriptor<>("txn-progress", TXN_PROGRESS);

    // ---- AuthorityControlCheck, keyed by tenant/account/assetType/asset ----
    /** Highest authority version applied in order. */
    public static final ValueStateDescriptor<Long> LAST_VERSION =
            new ValueStateDescriptor<>("authority-last-version", Types.LONG);

    /** Parked authority changes behind a gap: from-version → to-version. */
    public static final MapStateDescriptor<Long, Long> PARKED =
            new MapStateDescriptor<>("authority-parked", Types.LONG, Types.LONG);

    /**
     * Event time (the watermark) the oldest open gap must close by (absent = no gap); restored
     * values of earlier versions are processing times and fire once on their processing timer.
     */
    public static final ValueStateDescriptor<Long> GAP_DEADLINE =
            new ValueStateDescriptor<>("authority-gap-deadline", Types.LONG);

    /** Event time of the change that opened the oldest gap (keeps the break's batch stable). */
    public static final ValueStateDescriptor<Long> GAP_SINCE =
            new ValueStateDescriptor<>("authority-gap-since", Types.LONG);

    /** txnId → both sides of the control total on this account+asset. */
    public static final MapStateDescriptor<String, TxnControl> CONTROL =
            new MapStateDescriptor<>("authority-control", Types.STRING, TXN_CONTROL);

    private LedgerCheckState() {}
}
