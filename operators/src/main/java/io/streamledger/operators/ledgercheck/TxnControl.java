package io.streamledger.operators.ledgercheck;

/**
 * The two sides of one transaction on one account+asset in {@link AuthorityControlCheck} (AP12
 * control total): the posted deltas of the authority versions that name the transaction, and the
 * sum of its postings on that account+asset. Amounts are exact decimal strings.
 */
public class TxnControl {
    /** Sum of posted deltas of authority versions naming this txn; null while none arrived. */
    public String authorityDelta;

    /** Authority versions that named this txn, comma-separated (evidence). */
    public String versions = "";

    /** Sum of this txn's postings on the account+asset. */
    public String postingSum = "0";

    /** Line numbers seen, comma-separated (drops duplicate deliveries). */
    public String lines = "";

    /** True once the balance check's total of the decided transaction arrived. */
    public boolean totalSeen;

    /** Whether that total covered every declared line (evidence). */
    public boolean complete;

    public long firstEventTimeMillis;

    /** Watermark at which a side still alone is decided (processing time in older savepoints). */
    public long deadline;

    public TxnControl() {}
}
