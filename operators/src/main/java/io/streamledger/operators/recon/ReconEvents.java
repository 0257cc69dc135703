package io.streamledger.operators.recon;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.ledger.LedgerSchema;
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
        if (sk == null
                || !sk.startsWith(KeyPaths.IDX04_SK.literalPrefix())
                || c.operation() != Operation.INSERT) {
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
        if (LedgerSchema.isPosting(sk)
                && c.operation() == Operation.INSERT
                && i.containsKey(LedgerSchema.ROLE)) {
            ReconEvent e = new ReconEvent();
            e.kind = ReconEvent.Kind.POSTING;
            e.tenant = str(i, LedgerSchema.TENANT);
            e.txnId = str(i, LedgerSchema.TXN_ID);
            e.sourceId = opt(i, LedgerSchema.SOURCE_ID);
            e.line = Integer.parseInt(num(i, LedgerSchema.LINE));
            e.account = str(i, LedgerSchema.ACCOUNT);
            e.assetType = str(i, LedgerSchema.ASSET_TYPE);
            e.asset = str(i, LedgerSchema.ASSET);
            e.amount = num(i, LedgerSchema.AMOUNT);
            e.role = str(i, LedgerSchema.ROLE);
            String at = opt(i, LedgerSchema.EFFECTIVE_AT);
            e.eventTimeMillis =
                    Instant.parse(at != null ? at : str(i, LedgerSchema.RECORDED_AT))
                            .toEpochMilli();
            return Optional.of(e);
        }
        if (LedgerSchema.isSecurityAuthority(sk)) {
            ReconEvent e = new ReconEvent();
            e.kind = ReconEvent.Kind.AUTHORITY;
            e.tenant = str(i, LedgerSchema.TENANT);
            e.account = str(i, LedgerSchema.ACCOUNT);
            e.assetType = AuthorityKey.Kind.SEC.name();
            e.asset = str(i, LedgerSchema.ASSET);
            e.version = Long.parseLong(num(i, LedgerSchema.VERSION));
            e.posted = num(i, LedgerSchema.POSTED);
            String at = opt(i, LedgerSchema.UPDATED_AT);
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
