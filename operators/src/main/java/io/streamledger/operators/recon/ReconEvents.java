package io.streamledger.operators.recon;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.table.Attr;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * Maps change records to reconciliation inputs (AP14): Execution trade items (IDX04) → FILL; Ledger
 * postings written by the posting job (IDX10 with a {@code role}) → POSTING; Ledger securities
 * authorities (IDX11 AUTH#SEC#) → AUTHORITY. Removals and everything else are skipped; an
 * unreadable item is an {@link IllegalArgumentException} (dead-lettered by the source).
 */
public final class ReconEvents {

    private ReconEvents() {}

    public static Optional<ReconEvent> fromExecution(ChangeRecord c) {
        String sk = c.stringKey(Attr.SK);
        if (sk == null || !sk.startsWith("TRADE#") || c.operation() != Operation.INSERT) {
            return Optional.empty();
        }
        Map<String, AttributeValue> i = c.newImage();
        if (i == null) {
            throw new IllegalArgumentException("trade change " + c.eventId() + " has no new image");
        }
        ReconEvent e = new ReconEvent();
        e.kind = ReconEvent.Kind.FILL;
        e.tenant = str(i, "tenant");
        e.tradeId = str(i, "tradeId");
        e.account = str(i, Attr.ACCOUNT);
        e.symbol = str(i, Attr.SYMBOL);
        e.side = str(i, Attr.SIDE);
        e.quantity = num(i, Attr.QUANTITY);
        e.price = num(i, Attr.PRICE);
        e.currency = str(i, Attr.CURRENCY);
        e.fee = i.containsKey("fee") ? num(i, "fee") : null;
        e.eventTimeMillis = Instant.parse(str(i, "executedAt")).toEpochMilli();
        return Optional.of(e);
    }

    public static Optional<ReconEvent> fromLedger(ChangeRecord c) {
        String sk = c.stringKey(Attr.SK);
        if (sk == null || c.operation() == Operation.REMOVE || c.newImage() == null) {
            return Optional.empty();
        }
        Map<String, AttributeValue> i = c.newImage();
        if (sk.startsWith("POST#") && c.operation() == Operation.INSERT && i.containsKey("role")) {
            ReconEvent e = new ReconEvent();
            e.kind = ReconEvent.Kind.POSTING;
            e.tenant = str(i, "tenant");
            e.txnId = str(i, "txnId");
            e.sourceId = opt(i, "sourceId");
            e.line = Integer.parseInt(num(i, "line"));
            e.account = str(i, "accountId");
            e.assetType = str(i, "assetType");
            e.asset = str(i, "asset");
            e.amount = num(i, "amount");
            e.role = str(i, "role");
            String at = opt(i, "effectiveAt");
            e.eventTimeMillis =
                    Instant.parse(at != null ? at : str(i, "recordedAt")).toEpochMilli();
            return Optional.of(e);
        }
        if (sk.startsWith("AUTH#SEC#")) {
            ReconEvent e = new ReconEvent();
            e.kind = ReconEvent.Kind.AUTHORITY;
            e.tenant = str(i, "tenant");
            e.account = str(i, "accountId");
            e.assetType = "SEC";
            e.asset = str(i, "asset");
            e.version = Long.parseLong(num(i, Attr.VERSION));
            e.posted = num(i, "posted");
            String at = opt(i, "updatedAt");
            e.eventTimeMillis =
                    at != null
                            ? Instant.parse(at).toEpochMilli()
                            : c.approximateCreationDateTime().toEpochMilli();
            return Optional.of(e);
        }
        return Optional.empty();
    }

    private static String str(Map<String, AttributeValue> i, String name) {
        if (i.get(name) instanceof AttributeValue.S s) {
            return s.value();
        }
        throw new IllegalArgumentException("attribute '" + name + "' missing or not a string");
    }

    private static @Nullable String opt(Map<String, AttributeValue> i, String name) {
        return i.get(name) instanceof AttributeValue.S s ? s.value() : null;
    }

    private static String num(Map<String, AttributeValue> i, String name) {
        if (i.get(name) instanceof AttributeValue.N n) {
            return n.bigDecimal().toPlainString();
        }
        throw new IllegalArgumentException("attribute '" + name + "' missing or not a number");
    }
}
