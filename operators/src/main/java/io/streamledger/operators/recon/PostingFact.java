package io.streamledger.operators.recon;

import io.streamledger.model.keys.AuthorityKey;
import java.math.BigDecimal;
import javax.annotation.Nullable;

/** A trading ledger posting as reconciliation sees it (AP14, IDX10); amount exact, signed. */
public record PostingFact(
        String txnId,
        @Nullable String sourceId,
        int line,
        String account,
        AuthorityKey.Kind assetType,
        String asset,
        BigDecimal amount,
        String role) {}
