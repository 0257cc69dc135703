package io.streamledger.operators.ledgercheck;

import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.money.OverdraftExemptions;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;

/**
 * Limits and SLAs of the ledger checks (CS11, AP10/AP11/AP12): every wait and every buffer is
 * bounded.
 *
 * @param txnSlaMillis how long a transaction may stay incomplete
 * @param controlSlaMillis how long postings and their authority version may wait for each other
 * @param gapSlaMillis how long a missing authority version may stay missing
 * @param doneRetentionMillis how long a decided transaction is remembered to drop late duplicates
 * @param maxLinesPerTxn lines per transaction before TXN_LINE_LIMIT
 * @param maxParkedVersions authority versions parked behind a gap before AUTHORITY_VERSION_GAP
 * @param monthlyPostingLimit AP10: postings per account-month ({@link
 *     PostingSequence#MAX_POSTINGS_PER_MONTH})
 * @param overdraftExemptPrefixes account-id prefixes allowed a negative available (house accounts)
 */
public record LedgerCheckConfig(
        long txnSlaMillis,
        long controlSlaMillis,
        long gapSlaMillis,
        long doneRetentionMillis,
        int maxLinesPerTxn,
        int maxParkedVersions,
        long monthlyPostingLimit,
        List<String> overdraftExemptPrefixes)
        implements Serializable {

    public LedgerCheckConfig {
        if (txnSlaMillis <= 0 || controlSlaMillis <= 0 || gapSlaMillis <= 0) {
            throw new IllegalArgumentException("SLAs must be positive");
        }
        if (doneRetentionMillis < 0) {
            throw new IllegalArgumentException("doneRetentionMillis must be >= 0");
        }
        if (maxLinesPerTxn < 2 || maxLinesPerTxn > 9999) {
            throw new IllegalArgumentException("maxLinesPerTxn must be in [2, 9999]");
        }
        if (maxParkedVersions < 1 || maxParkedVersions > 10_000) {
            throw new IllegalArgumentException("maxParkedVersions must be in [1, 10000]");
        }
        if (monthlyPostingLimit < 1) {
            throw new IllegalArgumentException("monthlyPostingLimit must be >= 1");
        }
        overdraftExemptPrefixes = List.copyOf(overdraftExemptPrefixes);
    }

    public static LedgerCheckConfig defaults() {
        return of(Duration.ofMinutes(5), Duration.ofMinutes(5), Duration.ofMinutes(5));
    }

    public static LedgerCheckConfig of(Duration txnSla, Duration controlSla, Duration gapSla) {
        return new LedgerCheckConfig(
                txnSla.toMillis(),
                controlSla.toMillis(),
                gapSla.toMillis(),
                Duration.ofMinutes(30).toMillis(),
                1000,
                64,
                PostingSequence.MAX_POSTINGS_PER_MONTH,
                OverdraftExemptions.DEFAULT_PREFIXES);
    }

    public LedgerCheckConfig withOverdraftExempt(List<String> prefixes) {
        return new LedgerCheckConfig(
                txnSlaMillis,
                controlSlaMillis,
                gapSlaMillis,
                doneRetentionMillis,
                maxLinesPerTxn,
                maxParkedVersions,
                monthlyPostingLimit,
                prefixes);
    }

    public boolean overdraftExempt(String account) {
        return OverdraftExemptions.isExempt(account, overdraftExemptPrefixes);
    }
}
