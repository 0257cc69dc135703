package io.streamledger.operators.recon;

import java.math.BigDecimal;

/**
 * One version of an order item (IDX01) as the order ↔ fill check sees it (CS04): the accepted
 * quantity and the item's own filled quantity at that version, so any change of the filled quantity
 * (a fill, a correction) reads as an ordinary version.
 */
public record OrderFact(
        String orderId,
        String account,
        String symbol,
        BigDecimal quantity,
        BigDecimal filledQuantity,
        long version,
        String status) {}
