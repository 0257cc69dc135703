package io.streamledger.operators.ledgercheck;

import io.streamledger.model.change.Operation;
import io.streamledger.operators.recon.BreakRecord;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.datastream.SingleOutputStreamOperator;

/**
 * Wires the ledger checks (CS11, AP10–AP12) onto a stream of {@link LedgerFact}s: per-row checks,
 * per-transaction balance (whose decided totals feed the control total), per-authority
 * continuity/control total/available; one break stream out.
 */
public final class LedgerChecks {

    private LedgerChecks() {}

    public static DataStream<BreakRecord> apply(
            DataStream<LedgerFact> facts, LedgerCheckConfig config) {
        DataStream<BreakRecord> rows =
                facts.process(new PostingRowCheck(config), LedgerCheckState.BREAK)
                        .uid(LedgerCheckState.ROW_CHECK_UID)
                        .name(LedgerCheckState.ROW_CHECK_NAME);

        KeySelector<LedgerFact, String> byTxn = LedgerFact::txnKey;
        SingleOutputStreamOperator<BreakRecord> txns =
                facts.filter(LedgerChecks::insertedPosting)
                        .uid("ledgercheck-txn-filter-v1")
                        .name("ledger check: inserted postings")
                        .keyBy(byTxn, Types.STRING)
                        .process(new TransactionBalanceCheck(config), LedgerCheckState.BREAK)
                        .uid(LedgerCheckState.TXN_CHECK_UID)
                        .name(LedgerCheckState.TXN_CHECK_NAME);

        KeySelector<LedgerFact, String> byAuthority = LedgerFact::authorityKey;
        // the authority side meets complete transactions, never single posting lines
        DataStream<LedgerFact> totals = txns.getSideOutput(LedgerCheckState.TXN_TOTALS);
        DataStream<BreakRecord> authorities =
                facts.filter(f -> f.kind == FactKind.AUTHORITY)
                        .uid("ledgercheck-authority-filter-v1")
                        .name("ledger check: authorities")
                        .union(totals)
                        .keyBy(byAuthority, Types.STRING)
                        .process(new AuthorityControlCheck(config), LedgerCheckState.BREAK)
                        .uid(LedgerCheckState.AUTHORITY_CHECK_UID)
                        .name(LedgerCheckState.AUTHORITY_CHECK_NAME);

        return rows.union(txns, authorities)
                .map(new BreakMetrics())
                .returns(LedgerCheckState.BREAK)
                .uid(LedgerCheckState.BREAK_METRICS_UID)
                .name("ledger check: break metrics");
    }

    static boolean insertedPosting(LedgerFact f) {
        return f.kind == FactKind.POSTING && f.operation == Operation.INSERT;
    }
}
