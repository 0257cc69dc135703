package io.streamledger.model.keys;

import io.streamledger.model.money.CurrencyPolicy;
import java.util.List;

/**
 * IDX11 (AP12) cash/securities authority with version and reservations: {@code TEN#t#ACCT#a /
 * AUTH#CASH#currency} or {@code TEN#t#ACCT#a / AUTH#SEC#symbol}. A cash currency must be in the
 * {@link CurrencyPolicy} registry.
 *
 * @param tenant {@code t}
 * @param account {@code a}
 * @param kind CASH or SEC
 * @param asset the currency (CASH) or instrument symbol (SEC)
 */
public record AuthorityKey(String tenant, String account, Kind kind, String asset)
        implements ItemKey {
    /** Which asset the authority covers. */
    public enum Kind {
        CASH,
        SEC
    }

    public AuthorityKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("a", account);
        if (kind == null) {
            throw new KeyFormatException("kind", "is null (CASH or SEC)");
        }
        if (kind == Kind.CASH) {
            KeyComponents.require("currency", asset);
            if (!CurrencyPolicy.isKnown(asset)) {
                throw new KeyFormatException(
                        "currency", "'" + asset + "' is not in the CurrencyPolicy registry");
            }
        } else {
            KeyComponents.require("symbol", asset);
        }
    }

    public static AuthorityKey cash(String tenant, String account, String currency) {
        return new AuthorityKey(tenant, account, Kind.CASH, currency);
    }

    public static AuthorityKey security(String tenant, String account, String symbol) {
        return new AuthorityKey(tenant, account, Kind.SEC, symbol);
    }

    public static AuthorityKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX11_PK.match(pk);
        if (sk != null && sk.startsWith(KeyPaths.IDX11_SK_CASH.literalPrefix())) {
            return cash(p.get(0), p.get(1), KeyPaths.IDX11_SK_CASH.match(sk).get(0));
        }
        if (sk != null && sk.startsWith(KeyPaths.IDX11_SK_SEC.literalPrefix())) {
            return security(p.get(0), p.get(1), KeyPaths.IDX11_SK_SEC.match(sk).get(0));
        }
        throw new KeyFormatException(
                null, "sort key '" + sk + "' is neither " + KeyPaths.IDX11_SK_DECLARED);
    }

    @Override
    public String indexId() {
        return "IDX11";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX11_PK.build(tenant, account);
    }

    @Override
    public String sk() {
        return kind == Kind.CASH
                ? KeyPaths.IDX11_SK_CASH.build(asset)
                : KeyPaths.IDX11_SK_SEC.build(asset);
    }
}
