package io.streamledger.operators.posting;

import org.apache.flink.api.java.functions.KeySelector;

/**
 * The posting operator's key (AP10/AP12 hot-account split): tenant + house shard of the fill's
 * client account. Every fill of a lane writes the same house sub-accounts (counters and AP12
 * authority items), so one lane is one chain of transactions — fills never conflict with each other
 * on a house item — and a client account lives in one lane, so its fills keep their order.
 */
public final class PostingLane implements KeySelector<TradeFill, String> {

    private static final long serialVersionUID = 1L;

    /**
     * Lane of a fill without tenant or account: the rules reject it with a named reason (never
     * posted), so any fixed lane will do; it must not throw here, where a failure would restart the
     * job forever on the same record.
     */
    public static final String UNROUTABLE = "-/unroutable";

    private final HouseAccounts house;

    public PostingLane(HouseAccounts house) {
        this.house = house;
    }

    @Override
    public String getKey(TradeFill fill) {
        return of(house, fill);
    }

    /** The lane of {@code fill}. */
    public static String of(HouseAccounts house, TradeFill fill) {
        String tenant = fill.getTenant();
        String account = fill.getAccountId();
        if (tenant == null || tenant.isEmpty() || account == null || account.isEmpty()) {
            return UNROUTABLE;
        }
        return house.lane(tenant, account);
    }
}
