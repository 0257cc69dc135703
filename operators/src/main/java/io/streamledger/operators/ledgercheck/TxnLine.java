package io.streamledger.operators.ledgercheck;

import java.math.BigDecimal;
import java.util.Objects;

/**
 * One posting line of a transaction as the balance check keeps it (CS11): the account and asset it
 * moves and its exact signed amount. Keyed state, serialized by {@link TxnLineSerializer}.
 *
 * @param account the posting's account; null for lines restored from the format without it
 * @param assetType the posting's {@code assetType} as written (CASH or SEC)
 * @param asset currency or symbol
 * @param amount exact signed amount
 */
public record TxnLine(String account, String assetType, String asset, BigDecimal amount) {

    public TxnLine {
        Objects.requireNonNull(assetType, "assetType");
        Objects.requireNonNull(asset, "asset");
        Objects.requireNonNull(amount, "amount");
    }

    public static TxnLine of(LedgerFact posting) {
        return new TxnLine(
                posting.account, posting.assetType, posting.asset, new BigDecimal(posting.amount));
    }

    /**
     * Reads the encoding of the state before this type, {@code assetType:asset|amount}.
     *
     * @throws IllegalArgumentException for anything else
     */
    public static TxnLine fromLegacy(String encoded) {
        int bar = encoded.indexOf('|');
        int colon = encoded.indexOf(':');
        if (bar < 0 || colon < 0 || colon > bar) {
            throw new IllegalArgumentException("not an 'assetType:asset|amount' line: " + encoded);
        }
        return new TxnLine(
                null,
                encoded.substring(0, colon),
                encoded.substring(colon + 1, bar),
                new BigDecimal(encoded.substring(bar + 1)));
    }

    /** What a transaction balances per: {@code assetType:asset}. */
    public String assetKey() {
        return assetType + ":" + asset;
    }

    /** The legacy constructor's shape: a line whose account is not known. */
    public TxnLine(String assetType, String asset, BigDecimal amount) {
        this(null, assetType, asset, amount);
    }

    /**
     * Same account (when both know it), same asset and numerically equal amount (1.0 and 1.00 are
     * the same posting).
     */
    public boolean sameAs(TxnLine other) {
        return (account == null || other.account == null || account.equals(other.account))
                && assetKey().equals(other.assetKey())
                && amount.compareTo(other.amount) == 0;
    }

    /** Evidence form, {@code assetType:asset|amount}. */
    @Override
    public String toString() {
        return assetKey() + "|" + amount.toPlainString();
    }
}
