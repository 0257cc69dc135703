package io.streamledger.operators.posting;

import io.streamledger.model.shard.ShardHash;
import io.streamledger.model.shard.ShardMap;
import java.io.Serializable;

/**
 * Names the house contra accounts of a fill (CS11 double entry): the clearing account takes the
 * other side of cash and securities, fee-income accounts take the fee. Each is split into {@code
 * shards} sub-accounts by {@code h(txnId)} (seed "hot account": one contra item per tenant would
 * serialize every fill) using the seed's shard-hash contract with a versioned map.
 */
public final class HouseAccounts implements Serializable {

    private static final long serialVersionUID = 1L;

    public static final String CLEARING = "HOUSE-CLEARING";
    public static final String FEES = "HOUSE-FEES";

    private final int shards;

    /** ShardMap is not Serializable: rebuilt from {@link #shards} after deserialization. */
    private transient ShardMap map;

    public HouseAccounts(int shards) {
        this.shards = shards;
        this.map = map();
    }

    public int shards() {
        return shards;
    }

    private ShardMap map() {
        if (map == null) {
            map = new ShardMap("house-accounts", shards, ShardHash.HASH_VERSION, 1);
        }
        return map;
    }

    public String clearing(String txnId) {
        return CLEARING + "-" + shard(txnId);
    }

    public String feeIncome(String line, String txnId) {
        return FEES + "-" + line + "-" + shard(txnId);
    }

    private int shard(String txnId) {
        return map().assign(txnId).shard();
    }

    /** True for any house account id, e.g. to leave them out of client reports. */
    public static boolean isHouse(String accountId) {
        return accountId.startsWith("HOUSE-");
    }
}
