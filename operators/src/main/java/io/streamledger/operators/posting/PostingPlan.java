package io.streamledger.operators.posting;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The balanced ledger transaction for one fill (AP10, CS11), before it is written: deterministic
 * txnId, effective time, lines, and the rounding evidence of the cash consideration (CS10).
 *
 * @param tenant tenant of every line
 * @param txnId deterministic transaction id (one per tenant + source business id)
 * @param sourceId source business id, {@code TRADE:<tradeId>}
 * @param effectiveAt business time of the fill (keys the posting month)
 * @param lines the lines, balanced per asset
 * @param grossExact price × quantity before rounding
 * @param consideration the cash consideration after rounding to the currency's scale
 * @param roundingMode the explicit rounding mode of the consideration and fee split
 */
public record PostingPlan(
        String tenant,
        String txnId,
        String sourceId,
        Instant effectiveAt,
        List<LedgerLine> lines,
        BigDecimal grossExact,
        BigDecimal consideration,
        RoundingMode roundingMode) {

    public PostingPlan {
        lines = List.copyOf(lines);
    }

    /** grossExact − consideration: what rounding to the currency's scale left out. */
    public BigDecimal roundingResidual() {
        return grossExact.subtract(consideration);
    }

    /** Net change per authority (account + asset), in first-appearance order. */
    public Map<String, BigDecimal> deltasByAuthority() {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        for (LedgerLine l : lines) {
            out.merge(l.authorityId(), l.amount(), BigDecimal::add);
        }
        return out;
    }

    /** Sum per asset; every value is zero for a balanced transaction. */
    public Map<String, BigDecimal> sumByAsset() {
        Map<String, BigDecimal> out = new LinkedHashMap<>();
        for (LedgerLine l : lines) {
            out.merge(l.assetType() + "/" + l.asset(), l.amount(), BigDecimal::add);
        }
        return out;
    }

    public boolean isBalanced() {
        return sumByAsset().values().stream().allMatch(v -> v.signum() == 0);
    }
}
