package io.streamledger.model.keys;

import java.time.Instant;
import java.time.YearMonth;
import java.util.List;

/**
 * IDX10 (AP10, AP11) immutable ledger posting in a month sub-bucket: {@code
 * TEN#t#ACCT#a#MONTH#yyyy-mm#BKT#nn / POST#at#txn#line}. {@code nn} is two digits ({@code 00}..
 * {@code 99}; the seed plans eight buckets), {@code line} four zero-padded digits so the lines of
 * one transaction sort in order.
 *
 * @param tenant {@code t}
 * @param account {@code a}
 * @param month {@code yyyy-mm}
 * @param bucket {@code nn}
 * @param at posting time, millisecond precision
 * @param txnId deterministic transaction id {@code txn}
 * @param line posting {@code line} within the transaction
 */
public record PostingKey(
        String tenant,
        String account,
        YearMonth month,
        int bucket,
        Instant at,
        String txnId,
        int line)
        implements ItemKey {
    public PostingKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("a", account);
        KeyFields.month(month);
        KeyFields.requireRange("nn", bucket, 0, KeyFields.MAX_BUCKET);
        at = KeyTime.normalise("at", at);
        KeyComponents.require("txn", txnId);
        KeyFields.requireRange("line", line, 0, KeyFields.MAX_LINE);
    }

    public static PostingKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX10_PK.match(pk);
        List<String> s = KeyPaths.IDX10_SK.match(sk);
        return new PostingKey(
                p.get(0),
                p.get(1),
                KeyFields.parseMonth(p.get(2)),
                KeyFields.parseBucket(p.get(3)),
                KeyTime.parse("at", s.get(0)),
                s.get(1),
                KeyFields.parseLine(s.get(2)));
    }

    @Override
    public String indexId() {
        return "IDX10";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX10_PK.build(
                tenant, account, KeyFields.month(month), KeyFields.bucket(bucket));
    }

    @Override
    public String sk() {
        return KeyPaths.IDX10_SK.build(KeyTime.format(at), txnId, KeyFields.line(line));
    }
}
