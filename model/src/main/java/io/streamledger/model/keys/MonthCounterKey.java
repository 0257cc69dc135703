package io.streamledger.model.keys;

import java.time.YearMonth;
import java.util.List;

/**
 * The account-month posting counter (AP10 sequence and sub-bucket allocation, AP11's 2,000,000
 * postings/account/month admission limit): {@code TEN#t#ACCT#a / SEQ#MONTH#yyyy-mm}. The seed's key
 * table has no row for it; it lives in the account's IDX11 partition beside the AP12 authorities,
 * so a posting transaction's counter and authority writes share one item collection. Written by the
 * command service's ledger transactions and the posting job alike, read by the ledger check.
 *
 * @param tenant {@code t}
 * @param account {@code a}
 * @param month {@code yyyy-mm} (UTC month of the postings' effective time)
 */
public record MonthCounterKey(String tenant, String account, YearMonth month) implements ItemKey {

    /** Sort-key grammar (an extension of IDX11's partition, not a seed path). */
    public static final KeyPattern SK = KeyPattern.of("SEQ#MONTH#yyyy-mm");

    /** Literal start of every counter sort key. */
    public static final String SK_PREFIX = SK.literalPrefix();

    public MonthCounterKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("a", account);
        if (month == null) {
            throw new KeyFormatException("yyyy-mm", "is null");
        }
    }

    public static MonthCounterKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX11_PK.match(pk);
        return new MonthCounterKey(p.get(0), p.get(1), KeyFields.parseMonth(SK.match(sk).get(0)));
    }

    /** The partition it shares with the account's authorities. */
    @Override
    public String indexId() {
        return "IDX11";
    }

    @Override
    public String pk() {
        return KeyPaths.IDX11_PK.build(tenant, account);
    }

    @Override
    public String sk() {
        return SK.build(KeyFields.month(month));
    }
}
