package io.streamledger.savepoints.proof;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.ModelAv;
import io.streamledger.model.projection.ProjectionSchema;
import io.streamledger.model.table.Attr;
import io.streamledger.operators.gate.GateEvent;
import io.streamledger.operators.projection.AuthoritySnapshot;
import io.streamledger.savepoints.bootstrap.ExportedAuthorities;
import io.streamledger.savepoints.bootstrap.Namespace;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * Proves a rebuilt namespace against the AP12 ledger authority (CS09 step 6): every authority
 * within the namespace's view scope has exactly one view row and one checkpoint row at its version
 * with equal exact amounts; control totals per currency and per symbol agree over that scope; no
 * checkpoint has an open gap or parked events; no source key appears twice; nothing extra (a row of
 * an account outside the scope is extra). The report records the scope it proved. Run it after
 * catch-up has drained (writes quiesced or the stream lag at zero), since a moving ledger makes
 * versions legitimately differ.
 */
public final class NamespaceProof {

    /** Keys listed per failure class in the report; the counts are always complete. */
    static final int SAMPLE = 20;

    /** Common prefix of IDX11 {@code AUTH#CASH#} and {@code AUTH#SEC#} sort keys. */
    static final String AUTHORITY_SK_PREFIX = "AUTH#";

    private final DynamoDbClient ddb;
    private final Namespace ns;

    public NamespaceProof(DynamoDbClient ddb, Namespace ns) {
        this.ddb = ddb;
        this.ns = ns;
    }

    /** One authority as the ledger states it. */
    private record Expected(long version, AuthoritySnapshot snap) {}

    /** What the three scans returned: the ledger's authorities, the view rows, the checkpoints. */
    private record Observed(
            Map<String, Expected> ledger,
            long ledgerOutOfScope,
            List<String> ledgerDuplicates,
            Map<String, Map<String, AttributeValue>> view,
            long viewRows,
            List<String> viewDuplicates,
            List<Map<String, AttributeValue>> checkpointRows,
            Map<String, Map<String, AttributeValue>> checkpoints,
            List<String> checkpointDuplicates) {}

    /** Per-key findings of comparing the namespace with the ledger; empty lists mean proven. */
    private record Findings(
            List<String> openGaps,
            List<String> duplicates,
            List<String> missing,
            List<String> mismatched,
            List<String> extra,
            Map<String, Totals> totals) {}

    /** Control totals of one asset on both sides; absent on one side = an empty total. */
    private record Totals(ControlTotal ledger, ControlTotal view) {
        boolean equal() {
            return ledger.sameAs(view);
        }
    }

    /** Read the ledger and the namespace, compare them, decide, and write the report. */
    public ProofReport run() {
        Observed seen = read();
        Findings found = compare(seen);
        List<String> failures = verdict(seen, found);
        return report(seen, found, failures);
    }

    // ---- read: three scans, nothing decided yet

    private Observed read() {
        Map<String, Expected> ledger = new TreeMap<>();
        List<String> ledgerDuplicates = new ArrayList<>();
        long[] outOfScope = {0};
        String ledgerTable = ns.ledgerTable();
        NamespaceScans.scan(
                ddb,
                ledgerTable,
                AUTHORITY_SK_PREFIX,
                item -> {
                    // the namespace's scope: an authority outside it has no rows to prove
                    Optional<GateEvent> e =
                            ExportedAuthorities.toGateEvent(
                                    ModelAv.fromSdk(item), ledgerTable, Instant.EPOCH, ns.scope());
                    if (e.isEmpty()) {
                        outOfScope[0]++;
                    }
                    e.ifPresent(
                            ev -> {
                                Expected prev =
                                        ledger.put(
                                                ev.getSourceKey(),
                                                new Expected(
                                                        ev.getVersion(),
                                                        AuthoritySnapshot.fromJson(
                                                                ev.getPayload())));
                                if (prev != null) {
                                    ledgerDuplicates.add(ev.getSourceKey());
                                }
                            });
                });

        Map<String, Map<String, AttributeValue>> view = new HashMap<>();
        List<String> viewDuplicates = new ArrayList<>();
        long[] viewRows = {0};
        NamespaceScans.scan(
                ddb,
                ns.portfolioTable(),
                null,
                row -> {
                    viewRows[0]++;
                    String key = str(row, ProjectionSchema.SOURCE_KEY);
                    if (view.put(key, row) != null) {
                        viewDuplicates.add("view:" + key);
                    }
                });

        List<Map<String, AttributeValue>> checkpointRows = NamespaceScans.checkpoints(ddb, ns);
        Map<String, Map<String, AttributeValue>> cps = new HashMap<>();
        List<String> checkpointDuplicates = new ArrayList<>();
        for (Map<String, AttributeValue> cp : checkpointRows) {
            String key = str(cp, ProjectionSchema.SOURCE_KEY);
            if (cps.put(key, cp) != null) {
                checkpointDuplicates.add("checkpoint:" + key);
            }
        }
        return new Observed(
                ledger,
                outOfScope[0],
                ledgerDuplicates,
                view,
                viewRows[0],
                viewDuplicates,
                checkpointRows,
                cps,
                checkpointDuplicates);
    }

    // ---- guard: per-key checks against the ledger, pure

    private static Findings compare(Observed seen) {
        List<String> duplicates = new ArrayList<>(seen.ledgerDuplicates());
        duplicates.addAll(seen.viewDuplicates());
        duplicates.addAll(seen.checkpointDuplicates());

        List<String> openGaps = new ArrayList<>();
        for (Map<String, AttributeValue> cp : seen.checkpointRows()) {
            AttributeValue gap = cp.get(ProjectionSchema.GAP_OPEN);
            long parked = num(cp, ProjectionSchema.PARKED).longValue();
            if ((gap != null && Boolean.TRUE.equals(gap.bool())) || parked != 0) {
                openGaps.add(str(cp, ProjectionSchema.SOURCE_KEY));
            }
        }

        List<String> missing = new ArrayList<>();
        List<String> mismatched = new ArrayList<>();
        Map<String, ControlTotal> ledgerTotals = new TreeMap<>();
        Map<String, ControlTotal> viewTotals = new TreeMap<>();
        for (Map.Entry<String, Expected> e : seen.ledger().entrySet()) {
            String key = e.getKey();
            AuthoritySnapshot a = e.getValue().snap();
            String asset = a.assetType() + ":" + a.asset();
            ledgerTotals
                    .computeIfAbsent(asset, k -> new ControlTotal())
                    .add(a.posted(), a.reserved(), a.available());
            Map<String, AttributeValue> row = seen.view().get(key);
            Map<String, AttributeValue> cp = seen.checkpoints().get(key);
            if (row == null || cp == null) {
                missing.add(key + (row == null ? " (no view row)" : " (no checkpoint row)"));
                continue;
            }
            viewTotals
                    .computeIfAbsent(asset, k -> new ControlTotal())
                    .add(num(row, "posted"), num(row, "reserved"), num(row, "available"));
            mismatch(key, e.getValue(), row, cp).ifPresent(mismatched::add);
        }
        TreeSet<String> extra = new TreeSet<>(seen.view().keySet());
        extra.addAll(seen.checkpoints().keySet());
        extra.removeAll(seen.ledger().keySet());
        Map<String, Totals> totals = new TreeMap<>();
        TreeSet<String> assets = new TreeSet<>(ledgerTotals.keySet());
        assets.addAll(viewTotals.keySet());
        for (String asset : assets) {
            totals.put(
                    asset,
                    new Totals(
                            ledgerTotals.getOrDefault(asset, new ControlTotal()),
                            viewTotals.getOrDefault(asset, new ControlTotal())));
        }
        return new Findings(
                openGaps, duplicates, missing, mismatched, new ArrayList<>(extra), totals);
    }

    /**
     * How a key's view row and checkpoint differ from its authority: version first, then amounts.
     */
    private static Optional<String> mismatch(
            String key,
            Expected expected,
            Map<String, AttributeValue> row,
            Map<String, AttributeValue> cp) {
        AuthoritySnapshot a = expected.snap();
        BigDecimal posted = num(row, "posted");
        BigDecimal reserved = num(row, "reserved");
        BigDecimal available = num(row, "available");
        long rowVersion = num(row, Attr.SOURCE_VERSION).longValueExact();
        long cpVersion = num(cp, Attr.SOURCE_VERSION).longValueExact();
        if (rowVersion != expected.version() || cpVersion != expected.version()) {
            return Optional.of(
                    key
                            + " version ledger="
                            + expected.version()
                            + " view="
                            + rowVersion
                            + " checkpoint="
                            + cpVersion);
        }
        if (posted.compareTo(a.posted()) != 0
                || reserved.compareTo(a.reserved()) != 0
                || available.compareTo(a.available()) != 0) {
            return Optional.of(
                    key
                            + " amounts ledger posted/reserved/available="
                            + a.posted().toPlainString()
                            + "/"
                            + a.reserved().toPlainString()
                            + "/"
                            + a.available().toPlainString()
                            + " view="
                            + posted.toPlainString()
                            + "/"
                            + reserved.toPlainString()
                            + "/"
                            + available.toPlainString());
        }
        return Optional.empty();
    }

    // ---- plan: the verdict, one line per failure class, pure

    private static List<String> verdict(Observed seen, Findings found) {
        int authorities = seen.ledger().size();
        int checkpointRows = seen.checkpointRows().size();
        List<String> failures = new ArrayList<>();
        if (seen.viewRows() != authorities || checkpointRows != authorities) {
            failures.add(
                    "counts differ: authorities="
                            + authorities
                            + " viewRows="
                            + seen.viewRows()
                            + " checkpointRows="
                            + checkpointRows);
        }
        found.totals()
                .forEach(
                        (asset, t) -> {
                            if (!t.equal()) {
                                failures.add(
                                        "control total differs for "
                                                + asset
                                                + " ledger["
                                                + t.ledger()
                                                + "] view["
                                                + t.view()
                                                + "]");
                            }
                        });
        fail(failures, "open gaps", found.openGaps());
        fail(failures, "duplicates", found.duplicates());
        fail(failures, "authorities missing from the namespace", found.missing());
        fail(failures, "rows without an authority", found.extra());
        fail(failures, "rows differing from the authority", found.mismatched());
        return failures;
    }

    // ---- write: the report document

    private ProofReport report(Observed seen, Findings found, List<String> failures) {
        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode r = f.objectNode();
        r.put("kind", "streamledger.backfill.proof/v1");
        r.put("generatedAt", Instant.now().toString());
        ObjectNode n = r.putObject("namespace");
        n.put("projection", ns.base());
        n.put("version", ns.version());
        n.put("portfolioTable", ns.portfolioTable());
        n.put("checkpointName", ns.checkpointName());
        n.put("viewScope", ns.scope().label());
        r.put("ledgerTable", ns.ledgerTable());
        ObjectNode c = r.putObject("counts");
        c.put("authorities", seen.ledger().size());
        c.put("authoritiesOutsideViewScope", seen.ledgerOutOfScope());
        c.put("viewRows", seen.viewRows());
        c.put("checkpointRows", seen.checkpointRows().size());
        ObjectNode totals = r.putObject("controlTotals");
        found.totals()
                .forEach(
                        (asset, t) -> {
                            ObjectNode o = totals.putObject(asset);
                            o.set("ledger", total(t.ledger()));
                            o.set("view", total(t.view()));
                            o.put("equal", t.equal());
                        });
        section(r, "openGaps", found.openGaps());
        section(r, "duplicates", found.duplicates());
        section(r, "missing", found.missing());
        section(r, "extra", found.extra());
        section(r, "mismatched", found.mismatched());
        r.put("passed", failures.isEmpty());
        ArrayNode fl = r.putArray("failures");
        failures.forEach(fl::add);
        return ProofReport.of(r);
    }

    private static void fail(List<String> failures, String what, List<String> keys) {
        if (!keys.isEmpty()) {
            failures.add(
                    keys.size()
                            + " "
                            + what
                            + ", e.g. "
                            + String.join("; ", keys.subList(0, Math.min(3, keys.size()))));
        }
    }

    private static void section(ObjectNode r, String name, List<String> keys) {
        ObjectNode s = r.putObject(name);
        s.put("count", keys.size());
        ArrayNode a = s.putArray("sample");
        keys.stream().sorted().limit(SAMPLE).forEach(a::add);
    }

    private static ObjectNode total(ControlTotal t) {
        ObjectNode o = JsonNodeFactory.instance.objectNode();
        o.put("keys", t.keys);
        // strings: exact decimals, never JSON floats
        o.put("posted", t.posted.stripTrailingZeros().toPlainString());
        o.put("reserved", t.reserved.stripTrailingZeros().toPlainString());
        o.put("available", t.available.stripTrailingZeros().toPlainString());
        return o;
    }

    private static String str(Map<String, AttributeValue> row, String name) {
        AttributeValue v = row.get(name);
        return v == null || v.s() == null ? "<no " + name + ">" : v.s();
    }

    private static BigDecimal num(Map<String, AttributeValue> row, String name) {
        AttributeValue v = row.get(name);
        if (v == null || v.n() == null) {
            return BigDecimal.ZERO.negate().subtract(BigDecimal.ONE); // -1: visibly wrong
        }
        return new BigDecimal(v.n());
    }
}
