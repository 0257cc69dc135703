package io.streamledger.aws.shard;

import io.streamledger.aws.client.DynamoDbClientConfig;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.shard.ShardMapState;
import java.io.Serializable;
import java.time.Duration;
import java.util.function.Supplier;
import javax.annotation.Nullable;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * A serializable recipe for the cached shard-map state (AP09/AP13) that a function or sink ships to
 * its task and opens there on first use; {@link #fixed} is the seed map without any I/O.
 */
public final class ShardMapSource implements Supplier<ShardMapState>, Serializable {

    private static final long serialVersionUID = 1L;

    @Nullable private final DynamoDbClientConfig client;
    private final String table;
    // the seed map as plain fields: ShardMap is a model record, not Serializable
    private final String seedName;
    private final int seedShards;
    private final int seedHashVersion;
    private final int seedVersion;
    private final String ap;
    private final Duration refresh;
    private transient volatile ShardMapCache cache;
    private transient DynamoDbClient ddb;

    private ShardMapSource(
            @Nullable DynamoDbClientConfig client,
            String table,
            ShardMap seed,
            String ap,
            Duration refresh) {
        this.client = client;
        this.table = table;
        this.seedName = seed.name();
        this.seedShards = seed.shardCount();
        this.seedHashVersion = seed.hashVersion();
        this.seedVersion = seed.shardMapVersion();
        this.ap = ap;
        this.refresh = refresh;
    }

    /** The checkpoints' map (AP13) read from {@code projectionTable}. */
    public static ShardMapSource checkpoints(
            DynamoDbClientConfig client, String projectionTable, Duration refresh) {
        return new ShardMapSource(
                client, projectionTable, ShardMap.PROJECTION_CHECKPOINTS, "AP13", refresh);
    }

    /** Always the stable state of {@code seed} (no durable state is read). */
    public static ShardMapSource fixed(ShardMap seed) {
        return new ShardMapSource(null, "", seed, "AP13", Duration.ofSeconds(1));
    }

    private ShardMap seed() {
        return new ShardMap(seedName, seedShards, seedHashVersion, seedVersion);
    }

    @Override
    public ShardMapState get() {
        if (client == null) {
            return ShardMapState.initial(seed());
        }
        ShardMapCache c = cache;
        if (c == null) {
            synchronized (this) {
                if (cache == null) {
                    ddb = client.buildSyncClient();
                    cache = ShardMapCache.of(new ShardMapStore(ddb, table, seed(), ap), refresh);
                }
                c = cache;
            }
        }
        return c.current();
    }
}
