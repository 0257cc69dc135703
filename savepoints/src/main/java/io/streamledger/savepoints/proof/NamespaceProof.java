package io.streamledger.savepoints.proof;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.streamledger.aws.items.ModelAv;
import io.streamledger.jobs.projection.PortfolioRows;
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
 * Proves a rebuilt namespace against the AP12 ledger authority (CS09 step 6): every authority has
 * exactly one view row and one checkpoint row at its version with equal exact amounts; control
 * totals per currency and per symbol agree; no checkpoint has an open gap or parked events; no
 * source key appears twice; nothing extra. Run it after catch-up has drained (writes quiesced or
 * the stream lag at zero), since a moving ledger makes versions legitimately differ.
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

    public ProofReport run() {
        Map<String, Expected> ledger = new TreeMap<>();
        List<String> ledgerDuplicates = new ArrayList<>();
        String ledgerTable = ns.ledgerTable();
        NamespaceScans.scan(
                ddb,
                ledgerTable,
                AUTHORITY_SK_PREFIX,
                item -> {
                    Optional<GateEvent> e =
                            ExportedAuthorities.toGateEvent(
                                    ModelAv.fromSdk(item), ledgerTable, Instant.EPOCH);
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
        List<String> duplicates = new ArrayList<>(ledgerDuplicates);
        long[] viewRows = {0};
        NamespaceScans.scan(
                ddb,
                ns.portfolioTable(),
                null,
                row -> {
                    viewRows[0]++;
                    String key = str(row, PortfolioRows.SOURCE_KEY);
                    if (view.put(key, row) != null) {
                        duplicates.add("view:" + key);
                    }
                });
        List<Map<String, AttributeValue>> checkpoints = NamespaceScans.checkpoints(ddb, ns);
        Map<String, Map<String, AttributeValue>> cps = new HashMap<>();
        List<String> openGaps = new ArrayList<>();
        for (Map<String, AttributeValue> cp : checkpoints) {
            String key = str(cp, PortfolioRows.SOURCE_KEY);
            if (cps.put(key, cp) != null) {
                duplicates.add("checkpoint:" + key);
            }
            AttributeValue gap = cp.get(PortfolioRows.GAP_OPEN);
            long parked = num(cp, PortfolioRows.PARKED).longValue();
            if ((gap != null && Boolean.TRUE.equals(gap.bool())) || parked != 0) {
                openGaps.add(key);
            }
        }

        List<String> missing = new ArrayList<>();
        List<String> mismatched = new ArrayList<>();
        Map<String, ControlTotal> ledgerTotals = new TreeMap<>();
        Map<String, ControlTotal> viewTotals = new TreeMap<>();
        for (Map.Entry<String, Expected> e : ledger.entrySet()) {
            String key = e.getKey();
            AuthoritySnapshot a = e.getValue().snap();
            String asset = a.assetType() + ":" + a.asset();
            ledgerTotals
                    .computeIfAbsent(asset, k -> new ControlTotal())
                    .add(a.posted(), a.reserved(), a.available());
            Map<String, AttributeValue> row = view.get(key);
            Map<String, AttributeValue> cp = cps.get(key);
            if (row == null || cp == null) {
                missing.add(key + (row == null ? " (no view row)" : " (no checkpoint row)"));
                continue;
            }
            BigDecimal posted = num(row, "posted");
            BigDecimal reserved = num(row, "reserved");
            BigDecimal available = num(row, "available");
            viewTotals
                    .computeIfAbsent(asset, k -> new ControlTotal())
                    .add(posted, reserved, available);
            long rowVersion = num(row, Attr.SOURCE_VERSION).longValueExact();
            long cpVersion = num(cp, Attr.SOURCE_VERSION).longValueExact();
            long expected = e.getValue().version();
            if (rowVersion != expected || cpVersion != expected) {
                mismatched.add(
                        key
                                + " version ledger="
                                + expected
                                + " view="
                                + rowVersion
                                + " checkpoint="
                                + cpVersion);
            } else if (posted.compareTo(a.posted()) != 0
                    || reserved.compareTo(a.reserved()) != 0
                    || available.compareTo(a.available()) != 0) {
                mismatched.add(
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
        }
        TreeSet<String> extra = new TreeSet<>(view.keySet());
        extra.addAll(cps.keySet());
        extra.removeAll(ledger.keySet());

        JsonNodeFactory f = JsonNodeFactory.instance;
        ObjectNode r = f.objectNode();
        r.put("kind", "streamledger.backfill.proof/v1");
        r.put("generatedAt", Instant.now().toString());
        ObjectNode n = r.putObject("namespace");
        n.put("projection", ns.base());
        n.put("version", ns.version());
        n.put("portfolioTable", ns.portfolioTable());
        n.put("checkpointName", ns.checkpointName());
        r.put("ledgerTable", ledgerTable);
        ObjectNode c = r.putObject("counts");
        c.put("authorities", ledger.size());
        c.put("viewRows", viewRows[0]);
        c.put("checkpointRows", checkpoints.size());
        ObjectNode totals = r.putObject("controlTotals");
        List<String> totalMismatches = new ArrayList<>();
        TreeSet<String> assets = new TreeSet<>(ledgerTotals.keySet());
        assets.addAll(viewTotals.keySet());
        for (String asset : assets) {
            ControlTotal l = ledgerTotals.getOrDefault(asset, new ControlTotal());
            ControlTotal v = viewTotals.getOrDefault(asset, new ControlTotal());
            ObjectNode t = totals.putObject(asset);
            t.set("ledger", total(l));
            t.set("view", total(v));
            t.put("equal", l.sameAs(v));
            if (!l.sameAs(v)) {
                totalMismatches.add(asset + " ledger[" + l + "] view[" + v + "]");
            }
        }
        section(r, "openGaps", openGaps);
        section(r, "duplicates", duplicates);
        section(r, "missing", missing);
        section(r, "extra", new ArrayList<>(extra));
        section(r, "mismatched", mismatched);

        List<String> failures = new ArrayList<>();
        if (viewRows[0] != ledger.size() || checkpoints.size() != ledger.size()) {
            failures.add(
                    "counts differ: authorities="
                            + ledger.size()
                            + " viewRows="
                            + viewRows[0]
                            + " checkpointRows="
                            + checkpoints.size());
        }
        for (String m : totalMismatches) {
            failures.add("control total differs for " + m);
        }
        fail(failures, "open gaps", openGaps);
        fail(failures, "duplicates", duplicates);
        fail(failures, "authorities missing from the namespace", missing);
        fail(failures, "rows without an authority", new ArrayList<>(extra));
        fail(failures, "rows differing from the authority", mismatched);
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
