package io.streamledger.model.shard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.keys.TradeBySymbolKey;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** AP06 write sharding: the placement formula, generations and cutover, the config file. */
class SymbolShardingTest {

    static final Instant CUT = Instant.parse("2026-12-01T12:00:00Z");
    static final String CONFIG =
            "{\"symbols\":{\"HOT\":[{\"shards\":4,\"version\":2,\"from\":\"2026-12-01T12:00:00Z\"}]}}";

    @Test
    void shardIsTheSeedHashOfTheEventIdModuloN() {
        ShardMap four = new ShardMap(SymbolSharding.MAP_NAME, 4, ShardHash.HASH_VERSION, 2);
        // published vectors (model README): evt-0001 -> 8205306309149544234, evt-0002 -> ...075
        assertThat(SymbolSharding.shardOf("evt-0001", four)).isEqualTo(2);
        assertThat(SymbolSharding.shardOf("evt-0002", four)).isEqualTo(3);
        assertThat(SymbolSharding.shardOf("evt-0001", four))
                .isEqualTo((int) Long.remainderUnsigned(ShardHash.hash64("evt-0001"), 4));
    }

    @Test
    void defaultIsTodaysUnshardedKeyWithoutVersionAttributes() {
        SymbolSharding.Placement p =
                SymbolSharding.UNSHARDED.place("t1", "AAPL", CUT, "o1:f1", "evt-0001");
        assertThat(p.key().pk()).isEqualTo("TEN#t1#SYM#AAPL");
        assertThat(p.key().sk()).isEqualTo("TRADE#2026-12-01T12:00:00.000Z#o1:f1");
        assertThat(p.shardMapVersion()).isEqualTo(1);
        assertThat(SymbolSharding.UNSHARDED.plan("AAPL").readShards())
                .containsExactly(TradeBySymbolKey.UNSHARDED);
    }

    @Test
    void executionsFromTheCutoverGoToTheirHashShard() {
        SymbolSharding s = SymbolSharding.parse(CONFIG);
        SymbolSharding.Placement before =
                s.place("t1", "HOT", CUT.minusMillis(1), "o1:f1", "evt-0001");
        SymbolSharding.Placement at = s.place("t1", "HOT", CUT, "o1:f2", "evt-0001");
        SymbolSharding.Placement other = s.place("t1", "COLD", CUT, "o1:f3", "evt-0001");

        assertThat(before.key().pk()).isEqualTo("TEN#t1#SYM#HOT");
        assertThat(at.key().pk()).isEqualTo("TEN#t1#SYM#HOT#SHARD#2");
        assertThat(at.shardMapVersion()).isEqualTo(2);
        assertThat(at.hashVersion()).isEqualTo(ShardHash.HASH_VERSION);
        assertThat(other.key().pk()).isEqualTo("TEN#t1#SYM#COLD");
        assertThat(s.plan("HOT").readShards()).containsExactly(-1, 0, 1, 2, 3);
        assertThat(s.plan("HOT").version()).isEqualTo(2);
        assertThat(s.plan("HOT").shardedFrom()).isEqualTo(CUT);
        assertThat(s.plan("COLD").shardedFrom()).isNull();
    }

    @Test
    void aReshardKeepsEveryShardOfEveryGenerationReadable() {
        SymbolSharding s =
                SymbolSharding.parse(
                        "{\"default\":[{\"shards\":4,\"version\":2,\"from\":\"2026-12-01T12:00:00Z\"},"
                                + "{\"shards\":6,\"version\":3,\"from\":\"2026-12-02T12:00:00Z\"}]}");
        assertThat(s.plan("ANY").readShards()).containsExactly(-1, 0, 1, 2, 3, 4, 5);
        assertThat(s.plan("ANY").writeGeneration(CUT.plusSeconds(86_400)).map().shardCount())
                .isEqualTo(6);
        assertThat(s.plan("ANY").writeGeneration(CUT.plusSeconds(3600)).map().shardCount())
                .isEqualTo(4);
    }

    @Test
    void shardedKeysParseBackAndRejectOutOfRangeShards() {
        TradeBySymbolKey k = new TradeBySymbolKey("t1", "HOT", 3, CUT, "o1:f1");
        assertThat(k.pk()).isEqualTo("TEN#t1#SYM#HOT#SHARD#3");
        assertThat(TradeBySymbolKey.parse(k.pk(), k.sk())).isEqualTo(k);
        TradeBySymbolKey u = new TradeBySymbolKey("t1", "HOT", CUT, "o1:f1");
        assertThat(TradeBySymbolKey.parse(u.pk(), u.sk())).isEqualTo(u);
        assertThatThrownBy(() -> new TradeBySymbolKey("t1", "HOT", -2, CUT, "o1:f1"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aConfigThatCannotOrderItsGenerationsIsRejected() {
        assertThatThrownBy(
                        () ->
                                SymbolSharding.parse(
                                        "{\"default\":[{\"shards\":4,\"version\":1,"
                                                + "\"from\":\"2026-12-01T12:00:00Z\"}]}"))
                .hasMessageContaining("versions must increase");
        assertThatThrownBy(
                        () ->
                                SymbolSharding.parse(
                                        "{\"default\":[{\"shards\":4,\"version\":3,\"from\":\"2026-12-02T00:00:00Z\"},"
                                                + "{\"shards\":8,\"version\":4,\"from\":\"2026-12-01T00:00:00Z\"}]}"))
                .hasMessageContaining("cutover times must increase");
        assertThatThrownBy(() -> SymbolSharding.parse("{\"symbol\":{}}"))
                .hasMessageContaining("unknown member");
        assertThatThrownBy(
                        () -> SymbolSharding.parse("{\"default\":[{\"shards\":4,\"version\":2}]}"))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
