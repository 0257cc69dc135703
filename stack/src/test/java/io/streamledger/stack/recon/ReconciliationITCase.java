package io.streamledger.stack.recon;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.recon.BreakSinks;
import io.streamledger.jobs.recon.ReconOptions;
import io.streamledger.jobs.recon.ReconciliationJob;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.keys.TradeKey;
import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.recon.ReconWindowFunction;
import io.streamledger.stack.it.InputWatermarks;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.runtime.testutils.InMemoryReporter;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * A missing ledger transaction, an amount mismatch, an orphan ledger transaction and a lagging
 * projection are each found in the right window's AP14 batch, the batch's control totals equal sums
 * computed here independently, the next window is CLEAN, and a second run (restart without state)
 * changes no batch and duplicates no break.
 */
class ReconciliationITCase {

    private static final InMemoryReporter METRICS = InMemoryReporter.createWithRetainedMetrics();

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration
                                    .Builder()
                            .setConfiguration(METRICS.addToConfiguration(new Configuration()))
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final String T = "t1";
    private static final Instant W1 = Instant.parse("2026-11-30T09:00:00Z");
    private static final Instant W2 = W1.plusSeconds(60);
    private static final Duration WINDOW = Duration.ofMinutes(1);

    private ReconStack stack;

    /** Independent control totals per window start: name → exact sum. */
    private final Map<Instant, Map<String, BigDecimal>> totals = new HashMap<>();

    @BeforeEach
    void start() {
        // one shard per stream: the closing tick is read after the workload, never before a
        // record of a window it closes
        stack = new ReconStack("rc" + UUID.randomUUID().toString().substring(0, 8) + "_", null, 1);
    }

    @AfterEach
    void stop() {
        stack.close();
    }

    @Test
    void discrepanciesLandInTheirWindowsBatchWithExactControlTotals() throws Exception {
        // window 1: one clean fill, a fill without txn, a fill with a wrong txn, an orphan txn,
        // a lagging and an up-to-date position
        fill(W1.plusSeconds(1), "f1", "C1", "ACME", "BUY", "10", "12.345", "1.00");
        txn(W1.plusSeconds(1), "f1", "C1", "ACME", "BUY", "10", "12.345", "1.00", BigDecimal.ZERO);
        fill(W1.plusSeconds(2), "f2", "C2", "ACME", "SELL", "3", "20.00", "0.50");
        fill(W1.plusSeconds(3), "f3", "C3", "ACME", "BUY", "1", "100.00", "0");
        txn(
                W1.plusSeconds(3),
                "f3",
                "C3",
                "ACME",
                "BUY",
                "1",
                "100.00",
                "0",
                new BigDecimal("0.01"));
        txn(W1.plusSeconds(4), "ghost", "C4", "ACME", "BUY", "2", "5.00", "0", BigDecimal.ZERO);
        authority(W1.plusSeconds(5), "C1", "ACME", 2, "10");
        portfolio("C1", "ACME", 1, "0");
        authority(W1.plusSeconds(6), "C5", "ACME", 1, "5");
        portfolio("C5", "ACME", 1, "5");
        // window 2: clean
        fill(W2.plusSeconds(1), "f5", "C1", "ACME", "SELL", "4", "13.00", "0.25");
        txn(W2.plusSeconds(1), "f5", "C1", "ACME", "SELL", "4", "13.00", "0.25", BigDecimal.ZERO);
        // a later fill moves the business-time watermark past window 2
        Instant tick = W1.plusSeconds(600);
        fill(tick, "tick", "C9", "ACME", "BUY", "1", "1", "0");
        txn(tick, "tick", "C9", "ACME", "BUY", "1", "1", "0", BigDecimal.ZERO);

        String b1 = ReconWindowFunction.batchId(W1.toEpochMilli(), WINDOW.toMillis());
        String b2 = ReconWindowFunction.batchId(W2.toEpochMilli(), WINDOW.toMillis());
        runUntilBatches(List.of(b1, b2), Duration.ofSeconds(150));

        Map<String, Map<String, AttributeValue>> batches = stack.batches();
        Map<String, AttributeValue> batch1 = batches.get(b1);
        assertThat(batch1.get("PK").s()).isEqualTo("TEN#t1#RECON#2026-11-30");
        assertThat(batch1.get("outcome").s()).isEqualTo("BREAKS");
        assertThat(batch1.get("state").s()).isEqualTo("CLOSED");
        assertThat(batch1.get("breakCount").n()).isEqualTo("4");
        assertThat(batch1.get("windowStart").s()).isEqualTo(W1.toString());
        assertThat(batch1.get("manifest").s())
                .contains("\"source.FILL.count\":\"3\"")
                .contains("\"positions.versions\":\"C1/ACME@2;C5/ACME@1\"");
        assertControlTotals(batch1.get("controlTotals").s(), totals.get(W1));
        assertThat(batches.get(b2).get("outcome").s()).isEqualTo("CLEAN");
        assertControlTotals(batches.get(b2).get("controlTotals").s(), totals.get(W2));

        Map<String, Map<String, AttributeValue>> breaks =
                stack.breaks().stream()
                        .collect(Collectors.toMap(r -> r.get("breakId").s(), r -> r));
        assertThat(breaks.keySet())
                .containsExactlyInAnyOrder(
                        "MISSING_LEDGER_TXN:f2",
                        "AMOUNT_MISMATCH:f3",
                        "ORPHAN_LEDGER_TXN:" + LedgerIds.tradeTxnId(T, "ghost"),
                        "PROJECTION_LAG:C1:ACME:V:2");
        breaks.values().forEach(r -> assertThat(r.get("batchId").s()).isEqualTo(b1));
        assertThat(breaks.get("AMOUNT_MISMATCH:f3").get("evidence").s())
                .contains("\"expectedClientCash\":\"-100.00\"")
                .contains("\"actualClientCash\":\"-99.99\"");
        assertThat(breaks.get("PROJECTION_LAG:C1:ACME:V:2").get("evidence").s())
                .contains("\"viewVersion\":\"1\"");

        // restart: the same windows again from the start of the streams
        Map<String, String> before = snapshot();
        runUntilBatches(List.of(b1, b2), Duration.ofSeconds(150));
        assertThat(snapshot()).isEqualTo(before);
    }

    private Map<String, String> snapshot() {
        Map<String, String> out = new TreeMap<>();
        for (Map<String, AttributeValue> i : stack.scan(stack.table(Tables.RECONCILIATION))) {
            out.put(i.get("PK").s() + "/" + i.get("SK").s(), new TreeMap<>(i).toString());
        }
        return out;
    }

    /** Numerically equal (DynamoDB keeps numbers without trailing zeros). */
    private static void assertControlTotals(String json, Map<String, BigDecimal> expected) {
        assertThat(expected).isNotEmpty();
        expected.forEach(
                (k, v) -> {
                    java.util.regex.Matcher m =
                            java.util.regex.Pattern.compile(
                                            "\""
                                                    + java.util.regex.Pattern.quote(k)
                                                    + "\":\"([^\"]*)\"")
                                    .matcher(json);
                    assertThat(m.find()).as(k + " in " + json).isTrue();
                    assertThat(new BigDecimal(m.group(1))).as(k).isEqualByComparingTo(v);
                });
    }

    private Map<String, BigDecimal> totalsOf(Instant at) {
        Instant w = Instant.ofEpochMilli(at.toEpochMilli() - at.toEpochMilli() % WINDOW.toMillis());
        return totals.computeIfAbsent(w, k -> new TreeMap<>());
    }

    private void add(Instant at, String name, BigDecimal v) {
        totalsOf(at).merge(name, v, BigDecimal::add);
    }

    private void fill(
            Instant at,
            String tradeId,
            String account,
            String symbol,
            String side,
            String qty,
            String price,
            String fee) {
        TradeKey key = new TradeKey(T, "o-" + tradeId, at, tradeId);
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("PK", s(key.pk()));
        item.put("SK", s(key.sk()));
        item.put("tenant", s(T));
        item.put("tradeId", s(tradeId));
        item.put("fillId", s("fill-" + tradeId));
        item.put("orderId", s("o-" + tradeId));
        item.put("account", s(account));
        item.put("symbol", s(symbol));
        item.put("side", s(side));
        item.put("quantity", AttributeValue.fromN(qty));
        item.put("price", AttributeValue.fromN(price));
        item.put("currency", s("USD"));
        item.put("fee", AttributeValue.fromN(fee));
        item.put("executedAt", s(at.toString()));
        stack.ddb.putItem(b -> b.tableName(stack.table(Tables.EXECUTION)).item(item));
        add(at, "fills.count", BigDecimal.ONE);
        add(at, "fills.notional.USD", new BigDecimal(price).multiply(new BigDecimal(qty)));
        add(at, "fills.fees.USD", new BigDecimal(fee));
    }

    /** The posting job's six lines for a fill; {@code cashError} shifts the client's cash line. */
    private void txn(
            Instant at,
            String tradeId,
            String account,
            String symbol,
            String side,
            String qty,
            String price,
            String fee,
            BigDecimal cashError) {
        String txnId = LedgerIds.tradeTxnId(T, tradeId);
        BigDecimal cons =
                new BigDecimal(price)
                        .multiply(new BigDecimal(qty))
                        .setScale(new BigDecimal(price).scale(), RoundingMode.HALF_EVEN);
        BigDecimal sign = "BUY".equals(side) ? BigDecimal.ONE.negate() : BigDecimal.ONE;
        BigDecimal q = new BigDecimal(qty);
        BigDecimal f = new BigDecimal(fee);
        List<Object[]> lines = new ArrayList<>();
        lines.add(
                new Object[] {
                    account, "CASH", "USD", cons.multiply(sign).add(cashError), "CONSIDERATION"
                });
        lines.add(
                new Object[] {
                    "HOUSE-CLEARING",
                    "CASH",
                    "USD",
                    cons.multiply(sign).negate(),
                    "CONSIDERATION_CONTRA"
                });
        lines.add(new Object[] {account, "SEC", symbol, q.multiply(sign).negate(), "SECURITIES"});
        lines.add(
                new Object[] {
                    "HOUSE-CLEARING", "SEC", symbol, q.multiply(sign), "SECURITIES_CONTRA"
                });
        if (f.signum() > 0) {
            lines.add(new Object[] {account, "CASH", "USD", f.negate(), "FEE"});
            lines.add(new Object[] {"HOUSE-FEES", "CASH", "USD", f, "FEE_INCOME"});
        }
        int n = 0;
        for (Object[] l : lines) {
            n++;
            stack.putTradingLine(T, txnId, tradeId, n, lines.size(), l, at);
            BigDecimal amount = (BigDecimal) l[3];
            add(at, "ledger.postings.count", BigDecimal.ONE);
            if ("CASH".equals(l[1])) {
                add(
                        at,
                        (amount.signum() < 0 ? "ledger.cashDebits.USD" : "ledger.cashCredits.USD"),
                        amount);
            }
        }
        add(at, "ledger.txns.count", BigDecimal.ONE);
    }

    private void authority(Instant at, String account, String symbol, long version, String posted) {
        AuthorityKey key = AuthorityKey.security(T, account, symbol);
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("PK", s(key.pk()));
        item.put("SK", s(key.sk()));
        item.put("tenant", s(T));
        item.put("accountId", s(account));
        item.put("assetType", s("SEC"));
        item.put("asset", s(symbol));
        item.put("posted", AttributeValue.fromN(posted));
        item.put("reserved", AttributeValue.fromN("0"));
        item.put("available", AttributeValue.fromN(posted));
        item.put("version", AttributeValue.fromN(Long.toString(version)));
        item.put("lastTxnId", s("x"));
        item.put("updatedAt", s(at.toString()));
        stack.ddb.putItem(b -> b.tableName(stack.table(Tables.LEDGER)).item(item));
    }

    private void portfolio(String account, String symbol, long version, String posted) {
        PositionKey key = new PositionKey(T, account, symbol);
        stack.ddb.putItem(
                b ->
                        b.tableName(stack.naming.physicalName(Tables.PORTFOLIO, 1))
                                .item(
                                        Map.of(
                                                "PK", s(key.pk()),
                                                "SK", s(key.sk()),
                                                "posted", AttributeValue.fromN(posted),
                                                "sourceVersion",
                                                        AttributeValue.fromN(
                                                                Long.toString(version)))));
    }

    private void runUntilBatches(List<String> ids, Duration timeout) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(500);
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 200));
        env.getConfig().disableGenericTypes();
        Configuration conf = stack.config();
        conf.set(ReconOptions.RECON_WINDOW, WINDOW);
        conf.set(ReconOptions.RECON_ALLOWED_LATENESS, Duration.ofMinutes(2));
        conf.set(ReconOptions.RECON_OUT_OF_ORDERNESS, Duration.ofSeconds(1));
        conf.set(ReconOptions.RECON_IDLENESS, Duration.ofSeconds(5));
        conf.set(ReconOptions.PROJECTION_SLA, Duration.ofSeconds(30));
        Configuration exec = stack.configReading(Tables.EXECUTION);
        exec.addAll(conf);
        exec.set(
                JobOptions.STREAM_ARN,
                stack.configReading(Tables.EXECUTION).get(JobOptions.STREAM_ARN));
        Configuration ledger = new Configuration(exec);
        ledger.set(
                JobOptions.STREAM_ARN,
                stack.configReading(Tables.LEDGER).get(JobOptions.STREAM_ARN));
        new ReconciliationJob(
                        ChangeSources.fromConfig(exec, ReconciliationJob.ROLE_EXECUTION),
                        ChangeSources.fromConfig(ledger, ReconciliationJob.ROLE_LEDGER),
                        new ReconciliationJob.Sinks(
                                ReconciliationJob.batchSink(conf),
                                BreakSinks.dynamoDb(conf),
                                new CollectSink<>("reconLate"),
                                new CollectSink<>("reconDeadLetters")),
                        ReconciliationJob.positions(conf),
                        conf)
                .build(env);
        JobClient job = env.executeAsync("recon-it");
        try {
            stack.awaitClosed(job, ids, timeout);
            // the break sink writes at its checkpoint flush
            InputWatermarks.awaitCheckpoints(METRICS, job, 2, Duration.ofSeconds(30));
        } finally {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                job.cancel().get();
            }
        }
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }
}
