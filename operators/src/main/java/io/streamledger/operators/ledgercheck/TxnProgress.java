package io.streamledger.operators.ledgercheck;

/**
 * Per-transaction progress of {@link TransactionBalanceCheck} (CS11): the declared line count, when
 * the first line arrived, the pending timer, and whether the transaction has been decided.
 */
public class TxnProgress {
    public String tenant;
    public String txnId;

    /** 0 while no line declared a count. */
    public int lineCount;

    public long firstEventTimeMillis;

    /**
     * The pending timer: the event-time deadline while undecided, the processing-time end of the
     * retention once decided (older savepoints: a processing-time deadline, honoured once).
     */
    public long timerAt;

    public boolean decided;

    public TxnProgress() {}
}
