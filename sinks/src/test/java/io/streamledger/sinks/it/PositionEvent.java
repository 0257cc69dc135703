package io.streamledger.sinks.it;

import java.io.Serializable;
import java.util.Objects;

/**
 * A projected Portfolio position at a source version (seed AP07/IDX07 shape), as a Flink POJO so
 * tests run with generic types disabled. The quantity is derived from the version so a read-back
 * proves the newest attributes landed, not only the newest version number.
 */
public class PositionEvent implements Serializable {
    private static final long serialVersionUID = 1L;

    public String account;
    public String symbol;
    public long version;

    public PositionEvent() {}

    public PositionEvent(String account, String symbol, long version) {
        this.account = account;
        this.symbol = symbol;
        this.version = version;
    }

    public static long quantityAt(long version) {
        return version * 10;
    }

    public String pk() {
        return "TEN#t1#ACCT#" + account;
    }

    public String sk() {
        return "POS#" + symbol;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof PositionEvent)) {
            return false;
        }
        PositionEvent that = (PositionEvent) o;
        return version == that.version
                && account.equals(that.account)
                && symbol.equals(that.symbol);
    }

    @Override
    public int hashCode() {
        return Objects.hash(account, symbol, version);
    }

    @Override
    public String toString() {
        return account + "/" + symbol + "@v" + version;
    }
}
