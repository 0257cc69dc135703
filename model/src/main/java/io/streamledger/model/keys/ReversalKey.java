package io.streamledger.model.keys;

import java.util.List;

/**
 * The durable reversal record of one ledger transaction (AP10, CS11 "correct with a linked
 * reversing transaction"): {@code TEN#t#TXN#txn / REVERSAL} in the Ledger table, keyed by the
 * original's txnId. Created once, in the reversal's own transaction, never TTL-expired: it links
 * original and reversal and its create-once condition refuses a second reversal. The seed's key
 * table has no row for it (like the month counter); its sort key starts with neither {@code POST#}
 * nor {@code AUTH#}, so the ledger check, projection and reconciliation skip it.
 *
 * @param tenant {@code t}
 * @param txnId the original transaction's id {@code txn}
 */
public record ReversalKey(String tenant, String txnId) implements ItemKey {

    /** Partition grammar (an extension of the Ledger table, not a seed path). */
    public static final KeyPattern PK = KeyPattern.of("TEN#t#TXN#txn");

    /** Sort key: one record per original. */
    public static final KeyPattern SK = KeyPattern.of("REVERSAL");

    public ReversalKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("txn", txnId);
    }

    public static ReversalKey parse(String pk, String sk) {
        SK.match(sk);
        List<String> p = PK.match(pk);
        return new ReversalKey(p.get(0), p.get(1));
    }

    /** The ledger transactions it belongs to (AP10's table). */
    @Override
    public String indexId() {
        return "IDX10";
    }

    @Override
    public String pk() {
        return PK.build(tenant, txnId);
    }

    @Override
    public String sk() {
        return SK.build();
    }
}
