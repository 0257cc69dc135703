package io.streamledger.model.keys;

import java.util.List;

/**
 * One order's AP12 reservation (CS11): {@code TEN#t#ACCT#a / RES#orderId}. Like the month counter
 * it extends the account's IDX11 partition (no seed path of its own), so the reservation and the
 * authority whose reserved total it feeds share one item collection. Its prefix is not {@code
 * AUTH#}, so scans of authorities by prefix never mistake it for one.
 *
 * @param tenant {@code t}
 * @param account {@code a}
 * @param orderId the order that holds it
 */
public record ReservationKey(String tenant, String account, String orderId) implements ItemKey {

    /** Sort-key grammar (an extension of IDX11's partition, not a seed path). */
    public static final KeyPattern SK = KeyPattern.of("RES#orderId");

    /** Literal start of every reservation sort key. */
    public static final String SK_PREFIX = SK.literalPrefix();

    public ReservationKey {
        KeyComponents.require("t", tenant);
        KeyComponents.require("a", account);
        KeyComponents.require("orderId", orderId);
    }

    public static ReservationKey parse(String pk, String sk) {
        List<String> p = KeyPaths.IDX11_PK.match(pk);
        return new ReservationKey(p.get(0), p.get(1), SK.match(sk).get(0));
    }

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
        return SK.build(orderId);
    }
}
