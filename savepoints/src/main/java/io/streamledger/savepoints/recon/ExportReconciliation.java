package io.streamledger.savepoints.recon;

import io.streamledger.aws.items.ModelAv;
import io.streamledger.jobs.recon.DynamoDbPositionLookup;
import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.keys.KeyFormatException;
import io.streamledger.model.keys.PositionKey;
import io.streamledger.model.table.Attr;
import io.streamledger.model.table.TableNaming;
import io.streamledger.model.table.Tables;
import io.streamledger.operators.recon.BreakRecord;
import io.streamledger.operators.recon.BusinessTimeWindows;
import io.streamledger.operators.recon.OrderFillCheck;
import io.streamledger.operators.recon.OrderFillRules;
import io.streamledger.operators.recon.PositionView;
import io.streamledger.operators.recon.ReconBatch;
import io.streamledger.operators.recon.ReconConfig;
import io.streamledger.operators.recon.ReconEvent;
import io.streamledger.operators.recon.ReconEvents;
import io.streamledger.operators.recon.ReconFinish;
import io.streamledger.operators.recon.ReconWindowFunction;
import io.streamledger.operators.recon.ReconWindowResult;
import io.streamledger.savepoints.export.ExportManifest;
import io.streamledger.savepoints.export.ExportReader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import javax.annotation.Nullable;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;

/**
 * Reconciles declared windows from table exports (AP14/AP15; seed: "Bulk reconciliation uses a PITR
 * export with an immutable manifest"): reads the Orders, Execution, Ledger and Portfolio exports
 * (each held to its manifest by {@link ExportReader}), maps items with the streaming job's own
 * mappers ({@link ReconEvents}), runs the order ↔ fill rules ({@link OrderFillRules}) and each
 * window's firing ({@link ReconWindowFunction#fire}, {@link ReconFinish#plan}) — the very code of
 * the streaming job — and returns the closed AP14 batches and their breaks.
 *
 * <p>An export holds each item's last version: authorities and orders are judged at the version the
 * export holds (the streaming job also judges the versions in between); postings and trades are
 * immutable, so the fill ↔ ledger side sees what the stream saw.
 */
public final class ExportReconciliation {

    /** The declared window {@code [from, to)}: whole reconciliation windows inside it. */
    public record Window(Instant from, Instant to) {
        public Window {
            if (!from.isBefore(to)) {
                throw new IllegalArgumentException("window " + from + ".." + to + " is empty");
            }
        }

        /** {@code FROM..TO}, ISO-8601 instants. */
        public static Window parse(String text) {
            int i = text.indexOf("..");
            if (i < 0) {
                throw new IllegalArgumentException("window '" + text + "' is not FROM..TO");
            }
            return new Window(
                    Instant.parse(text.substring(0, i).trim()),
                    Instant.parse(text.substring(i + 2).trim()));
        }

        boolean holds(TimeWindow w) {
            return w.getStart() >= from.toEpochMilli() && w.getEnd() <= to.toEpochMilli();
        }
    }

    /** The exports read, the closed batches of the window and their breaks (batch order). */
    public record Result(
            Map<String, ExportManifest> exports,
            List<ReconBatch> batches,
            List<BreakRecord> breaks) {}

    private ExportReconciliation() {}

    /**
     * @param dir a folder holding one export per table (found by their manifests, any depth ≤ 6)
     * @param naming the tables' prefix
     * @param portfolioVersion the Portfolio namespace the positions check compares with
     */
    public static Result run(
            Path dir, TableNaming naming, int portfolioVersion, Window window, ReconConfig config) {
        Map<String, ExportManifest> exports = exports(dir, naming, portfolioVersion);
        ExportManifest execution = required(exports, naming.physicalName(Tables.EXECUTION));
        ExportManifest ledger = required(exports, naming.physicalName(Tables.LEDGER));
        ExportManifest portfolio =
                required(exports, naming.physicalName(Tables.PORTFOLIO, portfolioVersion));
        @Nullable ExportManifest orders = exports.get(naming.physicalName(Tables.ORDERS));

        List<ReconEvent> windowInput = new ArrayList<>();
        Map<String, List<ReconEvent>> orderVersions = new LinkedHashMap<>();
        Map<String, Map<String, ReconEvent>> orderTrades = new LinkedHashMap<>();
        ExportReader.verifyAll(
                execution,
                item ->
                        ReconEvents.fromExecutionItem(item)
                                .ifPresent(
                                        e -> {
                                            windowInput.add(e);
                                            if (OrderFillCheck.isInput(e)) {
                                                orderTrades
                                                        .computeIfAbsent(
                                                                OrderFillCheck.key(e),
                                                                k -> new LinkedHashMap<>())
                                                        .putIfAbsent(e.fill().tradeId(), e);
                                            }
                                        }));
        Instant ledgerTime = ledger.exportTime() == null ? Instant.EPOCH : ledger.exportTime();
        ExportReader.verifyAll(
                ledger,
                item -> ReconEvents.fromLedgerItem(item, ledgerTime).ifPresent(windowInput::add));
        Map<String, PositionView> rows = new HashMap<>();
        ExportReader.verifyAll(portfolio, item -> position(item, rows));
        if (orders != null) {
            ExportReader.verifyAll(
                    orders,
                    item ->
                            ReconEvents.fromOrderItem(item)
                                    .ifPresent(
                                            e ->
                                                    orderVersions
                                                            .computeIfAbsent(
                                                                    OrderFillCheck.key(e),
                                                                    k -> new ArrayList<>())
                                                            .add(e)));
            // every order's evidence is complete in an export: every subject is due
            java.util.Set<String> keys = new java.util.LinkedHashSet<>(orderVersions.keySet());
            keys.addAll(orderTrades.keySet());
            for (String k : keys) {
                windowInput.addAll(
                        OrderFillRules.judge(
                                orderVersions.getOrDefault(k, List.of()),
                                orderTrades.getOrDefault(k, Map.of()).values(),
                                t -> true));
            }
        }

        // tenant → window start → records, as the streaming window groups them
        Map<String, Map<Long, List<ReconEvent>>> byWindow = new TreeMap<>();
        for (ReconEvent e : windowInput) {
            long start = BusinessTimeWindows.start(e.eventTimeMillis, config.windowMillis());
            byWindow.computeIfAbsent(e.tenant, t -> new TreeMap<>())
                    .computeIfAbsent(start, s -> new ArrayList<>())
                    .add(e);
        }
        long firedAt = portfolio.exportTime() == null ? 0 : portfolio.exportTime().toEpochMilli();
        List<ReconBatch> batches = new ArrayList<>();
        List<BreakRecord> breaks = new ArrayList<>();
        byWindow.forEach(
                (tenant, windows) ->
                        windows.forEach(
                                (start, events) -> {
                                    TimeWindow w =
                                            new TimeWindow(start, start + config.windowMillis());
                                    if (!window.holds(w)) {
                                        return;
                                    }
                                    ReconWindowResult r =
                                            ReconWindowFunction.fire(
                                                    tenant, w, events, true, firedAt, config);
                                    PositionView[] views = new PositionView[r.authorities.length];
                                    for (int i = 0; i < views.length; i++) {
                                        var a = r.authorities[i].authority();
                                        views[i] =
                                                rows.get(
                                                        rowKey(
                                                                new PositionKey(
                                                                        tenant,
                                                                        a.account(),
                                                                        a.asset())));
                                    }
                                    r.attach(views);
                                    ReconFinish.Plan plan = ReconFinish.plan(r, config);
                                    batches.add(plan.batch());
                                    breaks.addAll(plan.breaks());
                                }));
        return new Result(exports, batches, breaks);
    }

    /** Every export below {@code dir} by its table; two exports of one table are refused. */
    static Map<String, ExportManifest> exports(Path dir, TableNaming naming, int portfolioVersion) {
        Map<String, ExportManifest> out = new TreeMap<>();
        try (Stream<Path> files = Files.walk(dir, 6)) {
            for (Path p :
                    files.filter(f -> f.getFileName().toString().equals(ExportReader.SUMMARY))
                            .toList()) {
                ExportManifest m = ExportReader.open(p.getParent());
                ExportManifest before = out.put(m.tableName(), m);
                if (before != null) {
                    throw new IllegalArgumentException(
                            "two exports of "
                                    + m.tableName()
                                    + ": "
                                    + before.directory()
                                    + " and "
                                    + m.directory());
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read exports in " + dir, e);
        }
        return out;
    }

    private static ExportManifest required(Map<String, ExportManifest> exports, String table) {
        ExportManifest m = exports.get(table);
        if (m == null) {
            throw new IllegalArgumentException(
                    "no export of " + table + " (found: " + exports.keySet() + ")");
        }
        return m;
    }

    private static void position(Map<String, AttributeValue> item, Map<String, PositionView> rows) {
        if (!(item.get(Attr.PK) instanceof AttributeValue.S pk)
                || !(item.get(Attr.SK) instanceof AttributeValue.S sk)) {
            return;
        }
        PositionKey key;
        try {
            key = PositionKey.parse(pk.value(), sk.value());
        } catch (KeyFormatException notAPosition) {
            return; // other items of the namespace table
        }
        rows.put(rowKey(key), DynamoDbPositionLookup.view(key, ModelAv.toSdk(item)));
    }

    private static String rowKey(PositionKey k) {
        return k.pk() + "|" + k.sk();
    }
}
