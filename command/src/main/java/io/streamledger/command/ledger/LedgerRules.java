package io.streamledger.command.ledger;

import io.streamledger.command.api.ApiException;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.money.OverdraftExemptions;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The ledger's guard clauses (CS11): an ordered list of checks, each rejecting with a named reason
 * — balanced per asset, available-balance policy (AP12: never overdraw available unless the account
 * is exempt, e.g. a house/external account).
 */
public final class LedgerRules {

    private final Set<String> overdraftExemptPrefixes;
    private final long bucketPostings;

    public LedgerRules(Set<String> overdraftExemptPrefixes) {
        this(overdraftExemptPrefixes, PostingSequence.MAX_POSTINGS_PER_BUCKET);
    }

    /**
     * @param bucketPostings postings per AP10 bucket before it rolls (see PostingSequence)
     */
    public LedgerRules(Set<String> overdraftExemptPrefixes, long bucketPostings) {
        this.overdraftExemptPrefixes = Set.copyOf(overdraftExemptPrefixes);
        this.bucketPostings = bucketPostings;
    }

    public long bucketPostings() {
        return bucketPostings;
    }

    /** Debits and credits must sum to zero for every currency and every symbol. */
    public static void requireBalanced(List<PostingLine> postings) {
        Map<String, BigDecimal> sums = new TreeMap<>();
        for (PostingLine p : postings) {
            sums.merge(p.asset().toString(), p.amount(), BigDecimal::add);
        }
        StringBuilder off = new StringBuilder();
        sums.forEach(
                (asset, sum) -> {
                    if (sum.signum() != 0) {
                        off.append(off.length() == 0 ? "" : ", ")
                                .append(asset)
                                .append(" off by ")
                                .append(sum.toPlainString());
                    }
                });
        if (off.length() > 0) {
            throw ApiException.unprocessable(
                    "UNBALANCED_TRANSACTION", "postings must balance per currency/symbol: " + off);
        }
    }

    public boolean exempt(String accountId) {
        return OverdraftExemptions.isExempt(accountId, overdraftExemptPrefixes);
    }

    /** AP12 available-balance policy for one authority after the change. */
    public void requireAvailable(
            String accountId, Asset asset, BigDecimal available, BigDecimal newAvailable) {
        if (newAvailable.signum() < 0 && !exempt(accountId)) {
            throw ApiException.unprocessable(
                    "INSUFFICIENT_AVAILABLE_BALANCE",
                    "account '"
                            + accountId
                            + "' "
                            + asset
                            + " available "
                            + asset.format(available)
                            + " cannot cover "
                            + asset.format(available.subtract(newAvailable)));
        }
    }
}
