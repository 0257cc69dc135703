package io.streamledger.stack.recon;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.jobs.config.JobOptions;
import io.streamledger.jobs.it.CollectSink;
import io.streamledger.jobs.recon.BreakSinks;
import io.streamledger.jobs.recon.ReconOptions;
import io.streamledger.jobs.recon.ReconciliationJob;
import io.streamledger.jobs.source.ChangeSources;
import io.streamledger.local.export.LocalTableExports;
import io.streamledger.model.keys.OrderKey;
import io.streamledger.model.keys.TradeKey;
import io.streamledger.model.ledger.LedgerIds;
import io.streamledger.model.table.TableSpec;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.ReconBatch;
import io.streamledger.operators.recon.ReconWindowFunction;
import io.streamledger.savepoints.cli.StreamledgerCli;
import io.streamledger.savepoints.recon.ReconcileReport;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.stream.Collectors;
import org.apache.flink.api.common.restartstrategy.RestartStrategies;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.JobClient;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ExportDescription;
import software.amazon.awssdk.services.dynamodb.model.ExportStatus;

/**
 * The streaming reconciliation job and {@code reconcile --from-export} over exports of the same
 * tables find the same AP15 breaks in the same AP14 batches (seed: bulk reconciliation from a PITR
 * export): a small workload of orders with their fills and ledger transactions, written in the
 * command service's and posting job's shapes, with one violation of each order ↔ fill rule and one
 * fill without its ledger transaction, so the comparison cannot pass vacuously.
 */
class ReconcileFromExportITCase {

    @RegisterExtension
    static final MiniClusterExtension CLUSTER =
            new MiniClusterExtension(
                    new org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration
                                    .Builder()
                            .setNumberTaskManagers(1)
                            .setNumberSlotsPerTaskManager(2)
                            .build());

    private static final String T = "t1";
    private static final Instant W1 = Instant.parse("2026-11-30T09:00:00Z");
    private static final Duration WINDOW = Duration.ofMinutes(1);

    @TempDir Path tmp;

    private ReconStack stack;

    @BeforeEach
    void start() {
        stack =
                new ReconStack(
                        "rx" + UUID.randomUUID().toString().substring(0, 8) + "_",
                        tmp.resolve("exports"),
                        1); // one shard per stream: the closing tick is read after the workload
    }

    @AfterEach
    void stop() {
        stack.close();
    }

    @Test
    void fromExportFindsTheStreamingJobsBreaksInTheSameBatches() throws Exception {
        // clean orders over two windows: two fills each, a fill before its order's version
        for (int i = 0; i < 6; i++) {
            Instant at = W1.plusSeconds(5 + 15L * i);
            String o = "o" + i;
            order(o, 1, "10", "0", at);
            fill(o, "f1", 2, "4", at.plusMillis(100), true);
            order(o, 2, "10", "4", at.plusMillis(101));
            fill(o, "f2", 3, "6", at.plusMillis(200), true);
            order(o, 3, "10", "10", at.plusMillis(201));
        }
        // violations: over-fill at the last version, a filled quantity other than the trades,
        // a fill of an order that does not exist, a fill without its ledger transaction
        Instant bad = W1.plusSeconds(70);
        order("over", 1, "10", "0", bad);
        fill("over", "f1", 2, "6", bad.plusMillis(100), true);
        order("over", 2, "10", "6", bad.plusMillis(101));
        fill("over", "f2", 3, "6", bad.plusMillis(200), true);
        order("over", 3, "10", "12", bad.plusMillis(201));
        order("short", 1, "10", "0", bad.plusSeconds(1));
        fill("short", "f1", 2, "4", bad.plusSeconds(1).plusMillis(100), true);
        order("short", 2, "10", "5", bad.plusSeconds(1).plusMillis(101));
        fill("ghost", "f1", 2, "1", bad.plusSeconds(2), true);
        order("unbooked", 1, "10", "0", bad.plusSeconds(3));
        fill("unbooked", "f1", 2, "2", bad.plusSeconds(3).plusMillis(100), false);
        order("unbooked", 2, "10", "2", bad.plusSeconds(3).plusMillis(101));
        // a later order moves every stream's business-time watermark past both windows
        Instant tick = W1.plusSeconds(600);
        order("tick", 1, "1", "0", tick);
        fill("tick", "f1", 2, "1", tick.plusMillis(1), true);
        order("tick", 2, "1", "1", tick.plusMillis(2));

        String b1 = ReconWindowFunction.batchId(W1.toEpochMilli(), WINDOW.toMillis());
        String b2 = ReconWindowFunction.batchId(W1.plus(WINDOW).toEpochMilli(), WINDOW.toMillis());
        runUntilClosed(List.of(b1, b2), Duration.ofSeconds(90));

        Set<String> expected =
                Set.of(
                        b2 + "/FILLS_EXCEED_ACCEPTED:over:V:3",
                        b2 + "/FILLED_QUANTITY_MISMATCH:short:V:2",
                        b2 + "/FILL_WITHOUT_ORDER:ghost:f1",
                        b2 + "/MISSING_LEDGER_TXN:unbooked:f1");
        Set<String> streamed =
                stack.breaks().stream()
                        .map(r -> r.get("batchId").s() + "/" + r.get("breakId").s())
                        .collect(Collectors.toCollection(TreeSet::new));
        assertThat(streamed).isEqualTo(expected);

        Path exports = tmp.resolve("exports");
        for (TableSpec spec : List.of(Tables.ORDERS, Tables.EXECUTION, Tables.LEDGER)) {
            export(stack.table(spec));
        }
        export(stack.naming.physicalName(Tables.PORTFOLIO, 1));
        Path out = tmp.resolve("report");
        int rc =
                StreamledgerCli.run(
                        "reconcile",
                        "--from-export",
                        exports.toString(),
                        "--window",
                        W1 + ".." + W1.plus(WINDOW.multipliedBy(2)),
                        "--prefix",
                        stack.prefix,
                        "--recon-window",
                        "1 min",
                        "--out",
                        out.toString());
        assertThat(rc).isZero();

        List<BreakRecord> fromExport = ReconcileReport.readBreaks(out);
        Set<String> exportedIds = new TreeSet<>();
        fromExport.forEach(b -> exportedIds.add(b.getBatchId() + "/" + b.getBreakId()));
        assertThat(exportedIds).isEqualTo(streamed);
        Map<String, Map<String, AttributeValue>> streamedBreaks =
                stack.breaks().stream()
                        .collect(Collectors.toMap(r -> r.get("breakId").s(), r -> r));
        for (BreakRecord b : fromExport) {
            Map<String, AttributeValue> s = streamedBreaks.get(b.getBreakId());
            assertThat(b.getReason()).isEqualTo(s.get("reason").s());
            assertThat(b.getEvidence()).isEqualTo(s.get("evidence").s());
        }

        Map<String, Map<String, AttributeValue>> batches = stack.batches();
        List<ReconBatch> exported = ReconcileReport.readBatches(out);
        assertThat(exported).extracting(b -> b.batchId).containsExactly(b1, b2);
        for (ReconBatch b : exported) {
            Map<String, AttributeValue> s = batches.get(b.batchId);
            assertThat(b.closed).isTrue();
            assertThat(b.outcome).isEqualTo(s.get("outcome").s());
            assertThat(Integer.toString(b.breakCount)).isEqualTo(s.get("breakCount").n());
            assertThat(b.controlTotals).isEqualTo(s.get("controlTotals").s());
            assertThat(b.manifest).isEqualTo(s.get("manifest").s());
        }
        assertThat(batches.get(b1).get("outcome").s()).isEqualTo("CLEAN");
    }

    private void order(String id, long version, String qty, String filled, Instant at) {
        OrderKey key = new OrderKey(T, id);
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("PK", s(key.pk()));
        item.put("SK", s(key.sk()));
        item.put("tenant", s(T));
        item.put("orderId", s(id));
        item.put("account", s("C-" + id));
        item.put("symbol", s("ACME"));
        item.put("side", s("BUY"));
        item.put("quantity", n(qty));
        item.put("filledQuantity", n(filled));
        item.put(
                "remainingQuantity",
                n(new BigDecimal(qty).subtract(new BigDecimal(filled)).toPlainString()));
        item.put("currency", s("USD"));
        item.put("status", s(version == 1 ? "ACCEPTED" : "PARTIALLY_FILLED"));
        item.put("version", n(Long.toString(version)));
        item.put("createdAt", s(at.toString()));
        item.put("updatedAt", s(at.toString()));
        stack.ddb.putItem(b -> b.tableName(stack.table(Tables.ORDERS)).item(item));
    }

    /** The trade item (IDX04) and, when {@code booked}, the posting job's four lines for it. */
    private void fill(
            String orderId,
            String fillId,
            long orderVersion,
            String qty,
            Instant at,
            boolean booked) {
        String tradeId = orderId + ":" + fillId;
        String account = "C-" + orderId;
        String price = "10.00";
        TradeKey key = new TradeKey(T, orderId, at, tradeId);
        Map<String, AttributeValue> item = new HashMap<>();
        item.put("PK", s(key.pk()));
        item.put("SK", s(key.sk()));
        item.put("tenant", s(T));
        item.put("tradeId", s(tradeId));
        item.put("fillId", s(fillId));
        item.put("orderId", s(orderId));
        item.put("account", s(account));
        item.put("symbol", s("ACME"));
        item.put("side", s("BUY"));
        item.put("quantity", n(qty));
        item.put("price", n(price));
        item.put("currency", s("USD"));
        item.put("fee", n("0"));
        item.put("executedAt", s(at.toString()));
        item.put("orderVersion", n(Long.toString(orderVersion)));
        stack.ddb.putItem(b -> b.tableName(stack.table(Tables.EXECUTION)).item(item));
        if (!booked) {
            return;
        }
        String txnId = LedgerIds.tradeTxnId(T, tradeId);
        BigDecimal cons = new BigDecimal(price).multiply(new BigDecimal(qty));
        Object[][] lines = {
            {account, "CASH", "USD", cons.negate(), "CONSIDERATION"},
            {"HOUSE-CLEARING", "CASH", "USD", cons, "CONSIDERATION_CONTRA"},
            {account, "SEC", "ACME", new BigDecimal(qty), "SECURITIES"},
            {"HOUSE-CLEARING", "SEC", "ACME", new BigDecimal(qty).negate(), "SECURITIES_CONTRA"}
        };
        for (int line = 1; line <= lines.length; line++) {
            stack.putTradingLine(T, txnId, tradeId, line, lines.length, lines[line - 1], at);
        }
    }

    /** ExportTableToPointInTime on the local endpoint, waited for (as the backfill tests do). */
    private void export(String table) throws Exception {
        ExportDescription d =
                stack.ddb
                        .exportTableToPointInTime(
                                b ->
                                        b.tableArn(LocalTableExports.tableArn(table))
                                                .s3Bucket("backups")
                                                .s3Prefix(table))
                        .exportDescription();
        for (int i = 0; i < 200 && d.exportStatus() == ExportStatus.IN_PROGRESS; i++) {
            Thread.sleep(50);
            String arn = d.exportArn();
            d = stack.ddb.describeExport(b -> b.exportArn(arn)).exportDescription();
        }
        assertThat(d.exportStatus()).isEqualTo(ExportStatus.COMPLETED);
    }

    private void runUntilClosed(List<String> ids, Duration timeout) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.enableCheckpointing(500);
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3, 200));
        env.getConfig().disableGenericTypes();
        Configuration conf = stack.config();
        conf.set(ReconOptions.RECON_WINDOW, WINDOW);
        conf.set(ReconOptions.RECON_ALLOWED_LATENESS, Duration.ofSeconds(20));
        conf.set(ReconOptions.RECON_OUT_OF_ORDERNESS, Duration.ofSeconds(1));
        conf.set(ReconOptions.RECON_IDLENESS, Duration.ofSeconds(5));
        conf.set(ReconOptions.PROJECTION_SLA, Duration.ofSeconds(30));
        new ReconciliationJob(
                        ChangeSources.fromConfig(
                                reading(conf, Tables.EXECUTION), ReconciliationJob.ROLE_EXECUTION),
                        ChangeSources.fromConfig(
                                reading(conf, Tables.LEDGER), ReconciliationJob.ROLE_LEDGER),
                        ChangeSources.fromConfig(
                                reading(conf, Tables.ORDERS), ReconciliationJob.ROLE_ORDERS),
                        new ReconciliationJob.Sinks(
                                ReconciliationJob.batchSink(conf),
                                BreakSinks.dynamoDb(conf),
                                new CollectSink<>("reconExportLate"),
                                new CollectSink<>("reconExportDeadLetters")),
                        ReconciliationJob.positions(conf),
                        conf)
                .build(env);
        JobClient job = env.executeAsync("recon-export-it");
        try {
            stack.awaitClosed(job, ids, timeout);
        } finally {
            if (!job.getJobStatus().get().isGloballyTerminalState()) {
                job.cancel().get();
            }
        }
    }

    private Configuration reading(Configuration conf, TableSpec spec) {
        Configuration c = new Configuration(conf);
        c.set(JobOptions.STREAM_ARN, stack.configReading(spec).get(JobOptions.STREAM_ARN));
        c.set(JobOptions.SOURCE_TABLE, stack.table(spec));
        return c;
    }

    private static AttributeValue s(String v) {
        return AttributeValue.fromS(v);
    }

    private static AttributeValue n(String v) {
        return AttributeValue.fromN(v);
    }
}
