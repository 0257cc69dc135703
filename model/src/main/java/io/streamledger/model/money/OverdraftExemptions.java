package io.streamledger.model.money;

import java.util.List;

/**
 * Accounts allowed a negative available balance (AP12 available policy, CS11 double entry): the
 * house contra sub-accounts the posting job writes ({@code HOUSE-CLEARING-k}, {@code
 * HOUSE-FEES-<line>-k}) and the system accounts ledger transactions fund clients from ({@code
 * SYS-…}). One default for the command service's admission and the ledger-check job, so a
 * transaction the one admits is never a violation for the other.
 */
public final class OverdraftExemptions {

    /** Account-id prefixes exempt by default. */
    public static final List<String> DEFAULT_PREFIXES = List.of("HOUSE-", "SYS-");

    private OverdraftExemptions() {}

    /** True if {@code accountId} starts with one of {@code prefixes}. */
    public static boolean isExempt(String accountId, Iterable<String> prefixes) {
        for (String p : prefixes) {
            if (accountId.startsWith(p)) {
                return true;
            }
        }
        return false;
    }
}
