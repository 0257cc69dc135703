package io.streamledger.model.projection;

import io.streamledger.model.ledger.HouseAccounts;
import java.util.Locale;

/**
 * Which accounts' AP12 authorities the AP07 Portfolio view (IDX07) of a namespace holds: every
 * account, or client accounts only (the {@link HouseAccounts} contra sub-accounts, written by every
 * fill, are read by no client). The one rule the projection job, the rebuild, its proof, the
 * reconciliation's positions check, the portfolio API and the stack's audit all apply.
 */
public enum ViewScope {
    /** Every authority, house sub-accounts included (the view as first deployed). */
    ALL,
    /** Client accounts only: house contra sub-accounts are left out of the view. */
    CLIENTS;

    /** What a namespace holds when nothing says otherwise (every namespace written before). */
    public static final ViewScope DEFAULT = ALL;

    /** True when {@code accountId}'s authorities have rows in a view of this scope. */
    public boolean includes(String accountId) {
        return this == ALL || !HouseAccounts.isHouse(accountId);
    }

    /** The lower-case spelling used in options, proofs and the alias item ({@code clients}). */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /**
     * @param text {@code all} or {@code clients}, any case; null or blank = {@link #DEFAULT}
     * @throws IllegalArgumentException for anything else
     */
    public static ViewScope parse(String text) {
        if (text == null || text.isBlank()) {
            return DEFAULT;
        }
        for (ViewScope s : values()) {
            if (s.name().equalsIgnoreCase(text.trim())) {
                return s;
            }
        }
        throw new IllegalArgumentException(
                "view scope must be 'all' or 'clients', got '" + text + "'");
    }
}
