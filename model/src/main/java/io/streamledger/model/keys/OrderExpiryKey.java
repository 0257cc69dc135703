package io.streamledger.model.keys;

import io.streamledger.model.shard.ShardHash;
import io.streamledger.model.shard.ShardMap;
import java.time.Instant;
import java.util.List;

/**
 * The Orders table's sparse GSI3 due-time queue of open DAY/GTD orders (CS04 time in force, shaped
 * like IDX15/IDX19): {@code TEN#t#EXPIRY#shard / DUE#at#id}, present from admission until the order
 * closes (filled, cancelled, expired), so the expiry scheduler finds what is due with one Query per
 * shard and never scans. Not a seed path: its id ({@code ORDER-EXPIRY}) stays out of the contract.
 *
 * @param tenant {@code t}
 * @param shard {@code shard} = h(t/orderId) mod {@link #SHARDS}
 * @param dueAt the order's expiry {@code at}, millisecond precision
 * @param orderId {@code id}
 */
public record OrderExpiryKey(String tenant, int shard, Instant dueAt, String orderId)
        implements ItemKey {

    /**
     * Shards per tenant: one tenant at the seed's 2,000 orders/s, each entry put at admission and
     * deleted at close, is 4,000 index writes/s; ceil(4000 / (1000 × 0.80)) = 5.
     */
    public static final ShardMap SHARDS =
            new ShardMap("order-expiry", 5, ShardHash.HASH_VERSION, 1);

    public static final KeyPattern PK = KeyPattern.of("TEN#t#EXPIRY#shard");
    public static final KeyPattern SK = KeyPattern.of("DUE#at#id");

    public OrderExpiryKey {
        KeyComponents.require("t", tenant);
        KeyFields.requireRange("shard", shard, 0, SHARDS.shardCount() - 1);
        dueAt = KeyTime.normalise("at", dueAt);
        KeyComponents.require("id", orderId);
    }

    /** The queue entry of an order expiring at {@code dueAt}. */
    public static OrderExpiryKey forOrder(String tenant, String orderId, Instant dueAt) {
        return new OrderExpiryKey(
                tenant, SHARDS.assign(tenant + "/" + orderId).shard(), dueAt, orderId);
    }

    /** The partition of one tenant's shard. */
    public static String partition(String tenant, int shard) {
        return PK.build(tenant, KeyFields.shard("shard", shard));
    }

    /** An SK above every entry due at or before {@code at}: {@code SK < bound} is "due by at". */
    public static String dueBound(Instant at) {
        return KeyTime.dueBound(SK, at);
    }

    public static OrderExpiryKey parse(String pk, String sk) {
        List<String> p = PK.match(pk);
        List<String> s = SK.match(sk);
        return new OrderExpiryKey(
                p.get(0),
                KeyFields.parseShard("shard", p.get(1)),
                KeyTime.parse("at", s.get(0)),
                s.get(1));
    }

    @Override
    public String indexId() {
        return "ORDER-EXPIRY";
    }

    @Override
    public String pk() {
        return partition(tenant, shard);
    }

    @Override
    public String sk() {
        return SK.build(KeyTime.format(dueAt), orderId);
    }
}
