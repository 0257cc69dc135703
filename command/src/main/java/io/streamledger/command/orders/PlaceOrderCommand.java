package io.streamledger.command.orders;

import io.streamledger.command.api.Amounts;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.model.money.Money;
import io.streamledger.model.money.Quantity;
import io.streamledger.model.order.OrderSide;
import java.time.LocalDate;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Map;
import javax.annotation.Nullable;

/** A validated POST /v1/orders body (accepted_order_v1, CS01/CS10). */
public record PlaceOrderCommand(
        String clientOrderId,
        String accountId,
        String symbol,
        OrderSide side,
        OrderType type,
        Quantity quantity,
        @Nullable Money limitPrice,
        String currency,
        TimeInForce timeInForce,
        @Nullable LocalDate expireDate) {

    /** A GTC order (the default time in force). */
    public PlaceOrderCommand(
            String clientOrderId,
            String accountId,
            String symbol,
            OrderSide side,
            OrderType type,
            Quantity quantity,
            @Nullable Money limitPrice,
            String currency) {
        this(
                clientOrderId,
                accountId,
                symbol,
                side,
                type,
                quantity,
                limitPrice,
                currency,
                TimeInForce.GTC,
                null);
    }

    public static final String OPERATION = "PlaceOrder";
    public static final int SCHEMA_VERSION = 1;

    public static PlaceOrderCommand parse(Fields f) {
        String clientOrderId = f.id("clientOrderId");
        String accountId = f.id("accountId");
        String symbol = Amounts.symbol(f, "symbol");
        OrderSide side = f.enumValue("side", OrderSide.class);
        OrderType type = f.enumValue("type", OrderType.class);
        String currency = Amounts.currency(f, "currency");
        Quantity quantity = Amounts.positiveQuantity("quantity", f.decimal("quantity"), symbol);
        java.math.BigDecimal rawPrice = f.optionalDecimal("limitPrice");
        Money limitPrice = null;
        if (type == OrderType.LIMIT) {
            if (rawPrice == null) {
                throw ApiException.badRequest(
                        "MISSING_FIELD",
                        "required field 'limitPrice' is missing for a LIMIT order");
            }
            limitPrice = Amounts.positiveMoney("limitPrice", rawPrice, currency);
        } else if (rawPrice != null) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "field 'limitPrice' must be absent for a MARKET order");
        }
        TimeInForce timeInForce = f.optionalEnum("timeInForce", TimeInForce.class, TimeInForce.GTC);
        LocalDate expireDate = expireDate(f, timeInForce);
        f.rejectUnknown();
        return new PlaceOrderCommand(
                clientOrderId,
                accountId,
                symbol,
                side,
                type,
                quantity,
                limitPrice,
                currency,
                timeInForce,
                expireDate);
    }

    /** GTD needs {@code expireDate} (a venue-local {@code yyyy-mm-dd}); the others refuse it. */
    private static @Nullable LocalDate expireDate(Fields f, TimeInForce tif) {
        String text = f.optionalText("expireDate", 10);
        if (tif != TimeInForce.GTD) {
            if (text != null) {
                throw ApiException.badRequest(
                        "INVALID_FIELD", "field 'expireDate' is only for timeInForce GTD");
            }
            return null;
        }
        if (text == null) {
            throw ApiException.badRequest(
                    "MISSING_FIELD", "required field 'expireDate' is missing for a GTD order");
        }
        try {
            return LocalDate.parse(text);
        } catch (DateTimeParseException e) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "field 'expireDate' must be a date yyyy-mm-dd: " + text);
        }
    }

    /** The fields that make up the fingerprint, in canonical (normalised) form. */
    public Map<String, Object> canonical() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("clientOrderId", clientOrderId);
        m.put("accountId", accountId);
        m.put("symbol", symbol);
        m.put("side", side);
        m.put("type", type);
        m.put("quantity", quantity.value());
        m.put("limitPrice", limitPrice == null ? null : limitPrice.amount());
        m.put("currency", currency);
        if (timeInForce != TimeInForce.GTC) {
            // only when not the default: the fingerprints of GTC orders stay what they were
            m.put("timeInForce", timeInForce);
        }
        if (expireDate != null) {
            m.put("expireDate", expireDate.toString());
        }
        return m;
    }
}
