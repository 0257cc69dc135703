package io.streamledger.command.fills;

import io.streamledger.command.api.Fields;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A POST /v1/orders/{id}/fills body before it is checked against the order (CS04); amounts stay raw
 * decimals until the order's symbol and currency are known.
 */
public record FillCommand(
        String orderId,
        String fillId,
        BigDecimal quantity,
        BigDecimal price,
        BigDecimal fee,
        Instant executedAt) {

    public static final String OPERATION = "RecordFill";
    public static final int SCHEMA_VERSION = 1;

    public static FillCommand parse(String orderId, Fields f) {
        Fields.checkId("order id", orderId);
        String fillId = f.id("fillId");
        BigDecimal quantity = f.decimal("quantity");
        BigDecimal price = f.decimal("price");
        BigDecimal fee = f.optionalDecimal("fee");
        Instant executedAt = f.instant("executedAt");
        f.rejectUnknown();
        return new FillCommand(
                orderId, fillId, quantity, price, fee == null ? BigDecimal.ZERO : fee, executedAt);
    }

    /** The idempotency key of a fill is its business identity (CS05), not a client header. */
    public String requestKey() {
        return "FILL:" + orderId + ":" + fillId;
    }

    public Map<String, Object> canonical() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("orderId", orderId);
        m.put("fillId", fillId);
        m.put("quantity", quantity);
        m.put("price", price);
        m.put("fee", fee);
        m.put("executedAt", executedAt.toString());
        return m;
    }
}
