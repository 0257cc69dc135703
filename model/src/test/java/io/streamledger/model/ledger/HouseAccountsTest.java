package io.streamledger.model.ledger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** House sub-accounts chosen by client account (AP12 hot-account split, CS11). */
class HouseAccountsTest {

    private final HouseAccounts house = new HouseAccounts(64);

    @Test
    void everyHouseAccountOfOneClientIsInTheClientsShardAndLane() {
        for (int i = 0; i < 500; i++) {
            String client = "acct-" + i;
            int shard = house.shard(client);
            assertThat(shard).isBetween(0, 63);
            assertThat(house.clearing(client)).isEqualTo("HOUSE-CLEARING-" + shard);
            assertThat(house.feeIncome("BROKER", client)).isEqualTo("HOUSE-FEES-BROKER-" + shard);
            assertThat(house.lane("t1", client)).isEqualTo("t1/H" + shard);
            assertThat(house.lane("t2", client)).isEqualTo("t2/H" + shard);
        }
    }

    @Test
    void clientsSpreadOverAllShardsRoughlyEvenly() {
        Map<Integer, Integer> perShard = new HashMap<>();
        for (int i = 0; i < 64_000; i++) {
            perShard.merge(house.shard("acct-" + i), 1, Integer::sum);
        }
        assertThat(perShard).hasSize(64);
        // 1,000 expected per shard; a broken hash (e.g. constant or low bits only) fails this
        assertThat(perShard.values()).allSatisfy(n -> assertThat(n).isBetween(850, 1150));
    }

    @Test
    void shardIsStableAcrossInstancesAndSerializationOfTheRules() {
        Set<String> lanes = new HashSet<>();
        HouseAccounts other = new HouseAccounts(64);
        for (int i = 0; i < 100; i++) {
            assertThat(other.shard("c" + i)).isEqualTo(house.shard("c" + i));
            lanes.add(house.lane("t", "c" + i));
        }
        assertThat(lanes.size()).isGreaterThan(40); // 100 clients over 64 lanes
    }

    @Test
    void rejectsANonPositiveShardCount() {
        assertThatThrownBy(() -> new HouseAccounts(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("1..4096");
    }

    @Test
    void recognisesHouseAccounts() {
        assertThat(HouseAccounts.isHouse(house.clearing("x"))).isTrue();
        assertThat(HouseAccounts.isHouse("acct-1")).isFalse();
    }
}
