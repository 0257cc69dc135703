package io.streamledger.model.ledger;

import io.streamledger.model.shard.ShardHash;
import io.streamledger.model.shard.ShardMap;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * Names the house contra accounts of a fill (CS11 double entry): the clearing account takes the
 * other side of cash and securities, fee-income accounts take the fee. Each is split into {@code
 * shards} sub-accounts (seed "hot account", AP12 L12: one contra item per tenant would serialize
 * every fill) using the seed's shard-hash contract with a versioned map.
 *
 * <p>The sub-account is chosen by the <em>client account</em>, not by the transaction: every fill
 * of one client account meets the same house shard, so the posting job can route fills by {@link
 * #lane} and give each house shard exactly one writer — one chain of transactions, no two of which
 * touch the same house counter or authority item at once (no conditional or transaction conflicts
 * between fills). Map version 2 (version 1 hashed the txnId); balances of a house account are the
 * sum over its shards under either version.
 */
public final class HouseAccounts implements Serializable {

    private static final long serialVersionUID = 2L;

    /** Start of every house account id. */
    public static final String PREFIX = "HOUSE-";

    public static final String CLEARING = PREFIX + "CLEARING";
    public static final String FEES = PREFIX + "FEES";

    /** Default sub-accounts per house account (the posting job's and the command service's). */
    public static final int DEFAULT_SHARDS = 64;

    /** Version of the client-account → house-shard map (1 hashed txnId). */
    public static final int SHARD_MAP_VERSION = 2;

    private final int shards;

    /** ShardMap is not Serializable: rebuilt from {@link #shards} after deserialization. */
    private transient ShardMap map;

    public HouseAccounts(int shards) {
        if (shards < 1 || shards > 4096) {
            throw new IllegalArgumentException("house shards must be 1..4096, got " + shards);
        }
        this.shards = shards;
        this.map = map();
    }

    public int shards() {
        return shards;
    }

    private ShardMap map() {
        if (map == null) {
            map = new ShardMap("house-accounts", shards, ShardHash.HASH_VERSION, SHARD_MAP_VERSION);
        }
        return map;
    }

    /** The clearing sub-account that takes the contra side of {@code clientAccount}'s fills. */
    public String clearing(String clientAccount) {
        return CLEARING + "-" + shard(clientAccount);
    }

    /** The fee-income sub-account of fee line {@code line} for {@code clientAccount}'s fills. */
    public String feeIncome(String line, String clientAccount) {
        return FEES + "-" + line + "-" + shard(clientAccount);
    }

    /**
     * Every account a fill of {@code clientAccount} may post to: the client, its clearing
     * sub-account and its fee-income sub-account of each of {@code rounding}'s fee lines.
     */
    public List<String> fillAccounts(String clientAccount, RoundingPolicy rounding) {
        List<String> out = new ArrayList<>();
        out.add(clientAccount);
        out.add(clearing(clientAccount));
        for (RoundingPolicy.FeeShare line : rounding.feeLines()) {
            out.add(feeIncome(line.name(), clientAccount));
        }
        return out;
    }

    /** The house shard of a client account: 0..shards-1, stable for the map version. */
    public int shard(String clientAccount) {
        return map().assign(clientAccount).shard();
    }

    /**
     * The posting lane of a client account: its tenant and house shard. All fills of one lane touch
     * the same house items, so one lane is posted by one chain; a client account is in one lane, so
     * its fills keep their order.
     */
    public String lane(String tenant, String clientAccount) {
        return tenant + "/H" + shard(clientAccount);
    }

    /** True for any house account id, e.g. to leave them out of client reports. */
    public static boolean isHouse(String accountId) {
        return accountId.startsWith(PREFIX);
    }
}
