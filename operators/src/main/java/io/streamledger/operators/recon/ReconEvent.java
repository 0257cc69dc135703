package io.streamledger.operators.recon;

/**
 * One input of the reconciliation window (AP14): a fill (Execution IDX04 trade item), a trading
 * ledger posting (IDX10, written by the posting job, it carries a {@code role}) or a securities
 * authority version (IDX11). Flat POJO; amounts are exact decimal strings; {@code eventTimeMillis}
 * is business time (fill executedAt, posting effectiveAt, authority updatedAt).
 */
public class ReconEvent {

    public enum Kind {
        FILL,
        POSTING,
        AUTHORITY
    }

    public Kind kind;
    public String tenant;
    public long eventTimeMillis;
    public String account;

    // fill
    public String tradeId;
    public String symbol;
    public String side;
    public String quantity;
    public String price;
    public String currency;
    public String fee;

    // posting
    public String txnId;
    public String sourceId;
    public int line;
    public String assetType;
    public String asset;
    public String amount;
    public String role;

    // authority (SEC)
    public long version;
    public String posted;

    public ReconEvent() {}

    @Override
    public String toString() {
        return kind
                + " "
                + tenant
                + " "
                + (tradeId != null ? tradeId : txnId)
                + " @"
                + eventTimeMillis;
    }
}
