package io.streamledger.operators.posting;

import io.streamledger.model.keys.AuthorityKey;
import java.math.BigDecimal;
import java.util.Objects;

/**
 * One immutable posting line of a ledger transaction (AP10, CS11): signed exact amount of one asset
 * on one account; positive credits the account's holding, negative debits it.
 *
 * @param line 1-based line number within the transaction
 * @param accountId account the line posts to
 * @param assetType CASH or SEC (the AP12 authority kind)
 * @param asset currency code or instrument symbol
 * @param amount signed exact amount
 * @param role why the line exists, e.g. {@code CONSIDERATION} or {@code FEE_INCOME:BROKER}
 */
public record LedgerLine(
        int line,
        String accountId,
        AuthorityKey.Kind assetType,
        String asset,
        BigDecimal amount,
        String role) {
    public LedgerLine {
        Objects.requireNonNull(accountId, "accountId");
        Objects.requireNonNull(assetType, "assetType");
        Objects.requireNonNull(asset, "asset");
        Objects.requireNonNull(amount, "amount");
        Objects.requireNonNull(role, "role");
    }

    /** The authority this line changes: account + asset (AP12). */
    public String authorityId() {
        return accountId + "/" + assetType + "/" + asset;
    }
}
