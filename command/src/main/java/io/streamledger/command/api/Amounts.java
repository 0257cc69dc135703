package io.streamledger.command.api;

import io.streamledger.model.money.AmountException;
import io.streamledger.model.money.CurrencyPolicy;
import io.streamledger.model.money.Money;
import io.streamledger.model.money.Quantity;
import io.streamledger.model.money.QuantityPolicy;
import java.math.BigDecimal;

/**
 * Turns request decimals into the model's exact Money and Quantity (CS10), mapping each model
 * rejection (scale beyond the currency, unknown currency, not positive, ...) to a 400 that names
 * the field and the reason.
 */
public final class Amounts {

    private Amounts() {}

    public static String currency(Fields f, String field) {
        String code = f.text(field);
        if (!CurrencyPolicy.isKnown(code)) {
            throw ApiException.badRequest(
                    "UNKNOWN_CURRENCY", "field '" + field + "': unknown currency '" + code + "'");
        }
        return code;
    }

    public static String symbol(Fields f, String field) {
        String s = f.text(field);
        try {
            return QuantityPolicy.requireSymbol(s);
        } catch (AmountException e) {
            throw reject(field, e);
        }
    }

    public static Money money(String field, BigDecimal value, String currency) {
        try {
            return Money.of(value, currency);
        } catch (AmountException e) {
            throw reject(field, e);
        }
    }

    public static Money positiveMoney(String field, BigDecimal value, String currency) {
        Money m = money(field, value, currency);
        if (m.amount().signum() <= 0) {
            throw ApiException.badRequest(
                    "NOT_POSITIVE", "field '" + field + "' must be positive, got " + value);
        }
        return m;
    }

    public static Quantity positiveQuantity(String field, BigDecimal value, String symbol) {
        try {
            return Quantity.of(value, symbol).requirePositive(field);
        } catch (AmountException e) {
            throw reject(field, e);
        }
    }

    private static ApiException reject(String field, AmountException e) {
        return ApiException.badRequest(
                e.reason().name(), "field '" + field + "': " + e.getMessage());
    }
}
