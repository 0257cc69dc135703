package io.streamledger.model.keys;

import java.util.List;

/**
 * The client account's execution-sequence counter (CS07 applied to postings): {@code TEN#t#ACCT#a /
 * SEQ#EXEC} in the Orders table, advanced by one in every fill transaction (CS04) so each
 * TradeExecuted carries the account's gapless {@link
 * io.streamledger.model.table.Attr#ACCOUNT_EXEC_SEQ}. The seed's key table has no row for it; it
 * reuses the account partition grammar of IDX02/IDX11.
 *
 * @param tenant {@code t}
 * @param account {@code a}
 */
public record ExecutionSequenceKey(String tenant, String account) implements ItemKey {

    /** Sort-key grammar (an extension of the account partition, not a seed path). */
    public static final KeyPattern SK = KeyPattern.of("SEQ#EXEC");

    public ExecutionSequenceKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("a", account);
    }

    public static ExecutionSequenceKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX02_PK.match(pk);
        SK.match(sk);
        return new ExecutionSequenceKey(p.get(0), p.get(1));
    }

    /** The account partition it extends (the counter item lives beside IDX01 in Orders). */
    @Override
    public String indexId() {
        return "IDX02";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX02_PK.build(tenant, account);
    }

    @Override
    public String sk() {
        return SK.build();
    }
}
