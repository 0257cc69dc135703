package io.streamledger.operators.recon;

import io.streamledger.model.change.AttributeValue;
import io.streamledger.model.change.ChangeRecord;
import io.streamledger.model.change.Operation;
import io.streamledger.model.keys.AuthorityKey;
import io.streamledger.model.keys.KeyPaths;
import io.streamledger.model.ledger.LedgerSchema;
import io.streamledger.model.order.OrderSide;
import io.streamledger.model.table.Attr;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import javax.annotation.Nullable;

/**
 * Maps change records and exported items to reconciliation inputs (AP14): Execution trade items
 * (IDX04) → FILL; Ledger postings written by the posting job (IDX10 with a {@code role}) → POSTING;
 * Ledger securities authorities (IDX11 AUTH#SEC#) → AUTHORITY; Orders order items (IDX01) → ORDER.
 * Removals and everything else are skipped; an unreadable item is an {@link
 * IllegalArgumentException} (dead-lettered by the source). The item mappers are the ones both the
 * streaming job and {@code reconcile --from-export} use.
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
        return Optional.of(fromTradeItem(i));
    }

    /** An Execution table item (change image or export line): a trade → FILL, else empty. */
    public static Optional<ReconEvent> fromExecutionItem(Map<String, AttributeValue> item) {
        String sk = sortKey(item);
        if (sk == null || !sk.startsWith(KeyPaths.IDX04_SK.literalPrefix())) {
            return Optional.empty();
        }
        return Optional.of(fromTradeItem(item));
    }

    private static ReconEvent fromTradeItem(Map<String, AttributeValue> i) {
        FillFact fill =
                new FillFact(
                        str(i, "tradeId"),
                        str(i, Attr.ACCOUNT),
                        str(i, Attr.SYMBOL),
                        side(i),
                        num(i, Attr.QUANTITY),
                        num(i, Attr.PRICE),
                        str(i, Attr.CURRENCY),
                        i.containsKey("fee") ? num(i, "fee") : null);
        long at = Instant.parse(str(i, "executedAt")).toEpochMilli();
        String orderId = opt(i, Attr.ORDER_ID);
        long orderVersion =
                i.containsKey(Attr.ORDER_VERSION) ? num(i, Attr.ORDER_VERSION).longValueExact() : 0;
        return orderId == null
                ? ReconEvent.of(str(i, "tenant"), at, fill)
                : ReconEvent.of(str(i, "tenant"), at, fill, orderId, orderVersion);
    }

    /** Orders table changes: every committed version of an order item (IDX01) → ORDER. */
    public static Optional<ReconEvent> fromOrders(ChangeRecord c) {
        if (c.operation() == Operation.REMOVE || c.newImage() == null) {
            return Optional.empty();
        }
        return fromOrderItem(c.stringKey(Attr.SK), c.newImage());
    }

    /** An exported Orders table item: an order → ORDER, else empty. */
    public static Optional<ReconEvent> fromOrderItem(Map<String, AttributeValue> item) {
        return fromOrderItem(sortKey(item), item);
    }

    private static Optional<ReconEvent> fromOrderItem(
            @Nullable String sk, Map<String, AttributeValue> i) {
        if (sk == null || !KeyPaths.IDX01_SK.pattern().equals(sk)) {
            return Optional.empty();
        }
        OrderFact order =
                new OrderFact(
                        str(i, Attr.ORDER_ID),
                        str(i, Attr.ACCOUNT),
                        str(i, Attr.SYMBOL),
                        num(i, Attr.QUANTITY),
                        num(i, Attr.FILLED_QUANTITY),
                        num(i, Attr.VERSION).longValueExact(),
                        str(i, Attr.STATUS));
        String at = opt(i, "updatedAt");
        return Optional.of(
                ReconEvent.of(
                        str(i, "tenant"),
                        Instant.parse(at != null ? at : str(i, Attr.CREATED_AT)).toEpochMilli(),
                        order));
    }

    public static Optional<ReconEvent> fromLedger(ChangeRecord c) {
        String sk = c.stringKey(Attr.SK);
        if (sk == null || c.operation() == Operation.REMOVE || c.newImage() == null) {
            return Optional.empty();
        }
        if (LedgerSchema.isPosting(sk) && c.operation() != Operation.INSERT) {
            return Optional.empty(); // postings are immutable: only their INSERT is a fact
        }
        return fromLedgerItem(sk, c.newImage(), c.approximateCreationDateTime());
    }

    /**
     * An exported Ledger table item: a trading posting → POSTING, a securities authority →
     * AUTHORITY, else empty; {@code fallbackTime} stamps an authority without {@code updatedAt}.
     */
    public static Optional<ReconEvent> fromLedgerItem(
            Map<String, AttributeValue> item, Instant fallbackTime) {
        String sk = sortKey(item);
        return sk == null ? Optional.empty() : fromLedgerItem(sk, item, fallbackTime);
    }

    private static @Nullable String sortKey(Map<String, AttributeValue> item) {
        return item.get(Attr.SK) instanceof AttributeValue.S s ? s.value() : null;
    }

    private static Optional<ReconEvent> fromLedgerItem(
            String sk, Map<String, AttributeValue> i, Instant fallbackTime) {
        if (LedgerSchema.isPosting(sk) && i.containsKey(LedgerSchema.ROLE)) {
            PostingFact posting =
                    new PostingFact(
                            str(i, LedgerSchema.TXN_ID),
                            opt(i, LedgerSchema.SOURCE_ID),
                            num(i, LedgerSchema.LINE).intValueExact(),
                            str(i, LedgerSchema.ACCOUNT),
                            assetType(i),
                            str(i, LedgerSchema.ASSET),
                            num(i, LedgerSchema.AMOUNT),
                            str(i, LedgerSchema.ROLE));
            String at = opt(i, LedgerSchema.EFFECTIVE_AT);
            ReconEvent e =
                    ReconEvent.of(
                            str(i, LedgerSchema.TENANT),
                            Instant.parse(at != null ? at : str(i, LedgerSchema.RECORDED_AT))
                                    .toEpochMilli(),
                            posting);
            return Optional.of(e);
        }
        if (LedgerSchema.isSecurityAuthority(sk)) {
            AuthorityFact authority =
                    new AuthorityFact(
                            str(i, LedgerSchema.ACCOUNT),
                            str(i, LedgerSchema.ASSET),
                            num(i, LedgerSchema.VERSION).longValueExact(),
                            num(i, LedgerSchema.POSTED));
            String at = opt(i, LedgerSchema.UPDATED_AT);
            ReconEvent e =
                    ReconEvent.of(
                            str(i, LedgerSchema.TENANT),
                            at != null
                                    ? Instant.parse(at).toEpochMilli()
                                    : fallbackTime.toEpochMilli(),
                            authority);
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

    private static BigDecimal num(Map<String, AttributeValue> i, String name) {
        if (i.get(name) instanceof AttributeValue.N n) {
            return n.bigDecimal();
        }
        throw new IllegalArgumentException("attribute '" + name + "' missing or not a number");
    }

    private static OrderSide side(Map<String, AttributeValue> i) {
        OrderSide side = OrderSide.parse(str(i, Attr.SIDE));
        if (side == null) {
            throw new IllegalArgumentException("attribute '" + Attr.SIDE + "' is not BUY or SELL");
        }
        return side;
    }

    private static AuthorityKey.Kind assetType(Map<String, AttributeValue> i) {
        String t = str(i, LedgerSchema.ASSET_TYPE);
        for (AuthorityKey.Kind k : AuthorityKey.Kind.values()) {
            if (k.name().equals(t)) {
                return k;
            }
        }
        throw new IllegalArgumentException(
                "attribute '" + LedgerSchema.ASSET_TYPE + "' unknown: " + t);
    }
}
