package io.streamledger.operators.recon;

import io.streamledger.model.order.OrderSide;
import java.math.BigDecimal;
import javax.annotation.Nullable;

/** A fill as reconciliation sees it (AP14, IDX04 trade item); amounts exact. */
public record FillFact(
        String tradeId,
        String account,
        String symbol,
        OrderSide side,
        BigDecimal quantity,
        BigDecimal price,
        String currency,
        @Nullable BigDecimal fee) {}
