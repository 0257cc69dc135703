package io.streamledger.savepoints.proof;

import java.math.BigDecimal;

/**
 * Exact control totals of one asset (AP14/CS09 step 3): per currency (CASH) or symbol (SEC), the
 * sums of posted, reserved and available and the number of keys; BigDecimal, never a double.
 */
final class ControlTotal {
    long keys;
    BigDecimal posted = BigDecimal.ZERO;
    BigDecimal reserved = BigDecimal.ZERO;
    BigDecimal available = BigDecimal.ZERO;

    void add(BigDecimal p, BigDecimal r, BigDecimal a) {
        keys++;
        posted = posted.add(p);
        reserved = reserved.add(r);
        available = available.add(a);
    }

    /** Equal as numbers (scale ignored: DynamoDB normalises N, e.g. 10.10 → 10.1). */
    boolean sameAs(ControlTotal o) {
        return keys == o.keys
                && posted.compareTo(o.posted) == 0
                && reserved.compareTo(o.reserved) == 0
                && available.compareTo(o.available) == 0;
    }

    @Override
    public String toString() {
        return "keys="
                + keys
                + " posted="
                + posted.toPlainString()
                + " reserved="
                + reserved.toPlainString()
                + " available="
                + available.toPlainString();
    }
}
