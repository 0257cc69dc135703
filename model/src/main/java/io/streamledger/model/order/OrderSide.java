package io.streamledger.model.order;

import javax.annotation.Nullable;

/** Side of an order and of its fills (AP01, CS04); a fill's side signs its ledger lines (CS11). */
public enum OrderSide {
    BUY,
    SELL;

    /** The side spelled exactly, or null for anything else. */
    public static @Nullable OrderSide parse(@Nullable String s) {
        if (s == null) {
            return null;
        }
        for (OrderSide side : values()) {
            if (side.name().equals(s)) {
                return side;
            }
        }
        return null;
    }
}
