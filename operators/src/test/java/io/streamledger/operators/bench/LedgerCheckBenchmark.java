package io.streamledger.operators.bench;

import io.streamledger.model.change.Operation;
import io.streamledger.operators.ledgercheck.AuthorityControlCheck;
import io.streamledger.operators.ledgercheck.FactKind;
import io.streamledger.operators.ledgercheck.LedgerCheckConfig;
import io.streamledger.operators.ledgercheck.LedgerCheckState;
import io.streamledger.operators.ledgercheck.LedgerFact;
import io.streamledger.operators.ledgercheck.TransactionBalanceCheck;
import io.streamledger.operators.recon.BreakRecord;
import java.lang.management.ManagementFactory;
import java.math.BigDecimal;
import java.time.Duration;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.operators.KeyedProcessOperator;
import org.apache.flink.streaming.util.KeyedOneInputStreamOperatorTestHarness;

/**
 * Throughput of the two keyed ledger checks on the heap backend (no network): a clean ledger of
 * two-line transactions, each with two authority versions. Prints facts/s wall and per CPU second.
 * Usage: {@code LedgerCheckBenchmark [transactions]} (default 200000).
 */
public final class LedgerCheckBenchmark {

    public static void main(String[] args) throws Exception {
        int txns = args.length > 0 ? Integer.parseInt(args[0]) : 200_000;
        LedgerCheckConfig cfg =
                LedgerCheckConfig.of(
                        Duration.ofMinutes(5), Duration.ofSeconds(1), Duration.ofMinutes(5));
        var txn =
                new KeyedOneInputStreamOperatorTestHarness<String, LedgerFact, BreakRecord>(
                        new KeyedProcessOperator<>(new TransactionBalanceCheck(cfg)),
                        LedgerFact::txnKey,
                        Types.STRING);
        var auth =
                new KeyedOneInputStreamOperatorTestHarness<String, LedgerFact, BreakRecord>(
                        new KeyedProcessOperator<>(new AuthorityControlCheck(cfg)),
                        LedgerFact::authorityKey,
                        Types.STRING);
        txn.open();
        auth.open();
        var bean = ManagementFactory.getThreadMXBean();
        long watermark = 0;
        for (int round = 0; round < 2; round++) { // round 0 warms up the JIT
            long cpu0 = bean.getCurrentThreadCpuTime();
            long t0 = System.nanoTime();
            BigDecimal[] posted = new BigDecimal[1000];
            long[] version = new long[1000];
            java.util.Arrays.fill(posted, BigDecimal.ZERO);
            long facts = 0;
            for (int i = 0; i < txns; i++) {
                String id = "r" + round + "-" + i;
                int a = i % 1000;
                BigDecimal amt = BigDecimal.valueOf(100 + i % 997, 2);
                LedgerFact p1 = posting(id, 1, "R" + round + "C" + a, amt);
                LedgerFact p2 = posting(id, 2, "HOUSE-" + round, amt.negate());
                txn.processElement(p1, 0);
                txn.processElement(p2, 0);
                var totals = txn.getSideOutput(LedgerCheckState.TXN_TOTALS);
                for (var t = totals.poll(); t != null; t = totals.poll()) {
                    auth.processElement(t.getValue(), 0);
                }
                auth.processElement(
                        authority(
                                "R" + round + "C" + a,
                                version[a]++,
                                posted[a],
                                posted[a] = posted[a].add(amt),
                                id),
                        0);
                facts += 4;
                if (i % 10_000 == 0) {
                    auth.processWatermark(watermark += 20_000); // fires the decided pairs' timers
                }
            }
            auth.processWatermark(watermark += 1_000_000);
            double secs = (System.nanoTime() - t0) / 1e9;
            double cpu = (bean.getCurrentThreadCpuTime() - cpu0) / 1e9;
            System.out.printf(
                    "round %d: %d facts in %.2f s = %.0f facts/s wall, %.0f facts per CPU s; breaks=%d%n",
                    round,
                    facts,
                    secs,
                    facts / secs,
                    facts / cpu,
                    txn.extractOutputValues().size() + auth.extractOutputValues().size());
        }
        txn.close();
        auth.close();
    }

    private static LedgerFact posting(String txn, int line, String account, BigDecimal amount) {
        LedgerFact f = new LedgerFact();
        f.kind = FactKind.POSTING;
        f.operation = Operation.INSERT;
        f.tenant = "t";
        f.account = account;
        f.assetType = "CASH";
        f.asset = "USD";
        f.txnId = txn;
        f.line = line;
        f.lineCount = 2;
        f.amount = amount.toPlainString();
        f.eventTimeMillis = 1L;
        return f;
    }

    private static LedgerFact authority(
            String account, long oldVersion, BigDecimal oldPosted, BigDecimal posted, String txn) {
        LedgerFact f = new LedgerFact();
        f.kind = FactKind.AUTHORITY;
        f.operation = oldVersion == 0 ? Operation.INSERT : Operation.MODIFY;
        f.tenant = "t";
        f.account = account;
        f.assetType = "CASH";
        f.asset = "USD";
        f.version = oldVersion + 1;
        f.oldVersion = oldVersion;
        f.oldPosted = oldPosted.toPlainString();
        f.posted = posted.toPlainString();
        f.reserved = "0";
        f.available = posted.toPlainString();
        f.lastTxnId = txn;
        f.eventTimeMillis = 1L;
        return f;
    }
}
