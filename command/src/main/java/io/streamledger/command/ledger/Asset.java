package io.streamledger.command.ledger;

import io.streamledger.command.api.Amounts;
import io.streamledger.command.api.ApiException;
import io.streamledger.command.api.Fields;
import io.streamledger.model.keys.AuthorityKey;
import java.math.BigDecimal;

/**
 * What an AP12 authority item holds: cash in a currency ({@code AUTH#CASH#ccy}) or a security
 * position ({@code AUTH#SEC#symbol}); it fixes the exact scale of every amount of that asset.
 */
public record Asset(AuthorityKey.Kind type, String code) {

    /** Reads exactly one of {@code currency} / {@code symbol} from a JSON object. */
    public static Asset parse(Fields f) {
        String ccy = f.optionalText("currency", 3);
        String sym = f.optionalText("symbol", 32);
        if ((ccy == null) == (sym == null)) {
            throw ApiException.badRequest(
                    "INVALID_FIELD", "exactly one of 'currency' or 'symbol' must be given");
        }
        return ccy != null
                ? new Asset(AuthorityKey.Kind.CASH, Amounts.currency(f, "currency"))
                : new Asset(AuthorityKey.Kind.SEC, Amounts.symbol(f, "symbol"));
    }

    /** An exact, non-zero signed amount of this asset (scale checked by the model policies). */
    public BigDecimal exact(String field, BigDecimal amount) {
        BigDecimal abs = amount.abs();
        if (abs.signum() == 0) {
            throw ApiException.badRequest("NOT_POSITIVE", "field '" + field + "' must not be zero");
        }
        BigDecimal checked =
                type == AuthorityKey.Kind.CASH
                        ? Amounts.positiveMoney(field, abs, code).amount()
                        : Amounts.positiveQuantity(field, abs, code).value();
        return amount.signum() < 0 ? checked.negate() : checked;
    }

    /** Display form: cash at the currency's full scale, quantities without trailing zeros. */
    public String format(BigDecimal v) {
        if (type == AuthorityKey.Kind.CASH) {
            return io.streamledger.model.money.Money.of(v, code).amount().toPlainString();
        }
        return v.signum() == 0 ? "0" : v.stripTrailingZeros().toPlainString();
    }

    /** The IDX11 key of this asset's authority for an account. */
    public AuthorityKey authorityKey(String tenant, String accountId) {
        return new AuthorityKey(tenant, accountId, type, code);
    }

    /** The JSON field that names this asset in API bodies: {@code currency} or {@code symbol}. */
    public String viewField() {
        return type == AuthorityKey.Kind.CASH ? "currency" : "symbol";
    }

    @Override
    public String toString() {
        return type + ":" + code;
    }
}
