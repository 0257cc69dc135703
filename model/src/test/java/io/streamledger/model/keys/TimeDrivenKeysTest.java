package io.streamledger.model.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.model.shard.ShardMap;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** The due-time, outbox lease and duty lease keys round-trip and sort by time within a shard. */
class TimeDrivenKeysTest {

    @Test
    void orderExpiryKeysAreTenantFirstShardedAndSortByDueTime() {
        Instant at = Instant.parse("2026-03-09T20:00:00Z");
        OrderExpiryKey k = OrderExpiryKey.forOrder("t1", "o-42", at);
        assertThat(k.pk()).isEqualTo("TEN#t1#EXPIRY#" + k.shard());
        assertThat(k.sk()).isEqualTo("DUE#2026-03-09T20:00:00.000Z#o-42");
        assertThat(k.shard())
                .isEqualTo(OrderExpiryKey.SHARDS.assign("t1/o-42").shard())
                .isBetween(0, OrderExpiryKey.SHARDS.shardCount() - 1);
        assertThat(OrderExpiryKey.parse(k.pk(), k.sk())).isEqualTo(k);
        // due at or before `at` sorts below the bound, a later one above
        assertThat(k.sk()).isLessThan(OrderExpiryKey.dueBound(at));
        assertThat(OrderExpiryKey.forOrder("t1", "o-42", at.plusMillis(1)).sk())
                .isGreaterThan(OrderExpiryKey.dueBound(at));
        assertThatThrownBy(() -> OrderExpiryKey.parse("TEN#t1#EXPIRY#5", k.sk()))
                .isInstanceOf(KeyFormatException.class);
    }

    @Test
    void outboxLeaseKeysShardAsTheReadyQueueDoes() {
        Instant until = Instant.parse("2026-12-01T10:00:30Z");
        OutboxLeaseKey k = OutboxLeaseKey.forEvent("command", until, "ev-1", ShardMap.OUTBOX_READY);
        OutboxReadyKey ready =
                OutboxReadyKey.forEvent("command", until, "ev-1", ShardMap.OUTBOX_READY);
        assertThat(k.shard()).isEqualTo(ready.shard());
        assertThat(k.pk()).isEqualTo("SERVICE#command#LEASE#" + ready.shard());
        assertThat(k.sk()).isEqualTo("EXP#2026-12-01T10:00:30.000Z#ev-1");
        assertThat(OutboxLeaseKey.parse(k.pk(), k.sk())).isEqualTo(k);
        assertThat(k.sk()).isLessThan(OutboxLeaseKey.expiredBound(until));
        assertThat(k.sk()).isGreaterThan(OutboxLeaseKey.expiredBound(until.minusMillis(1)));
    }

    @Test
    void dutyLeaseKeysNameTenantDutyAndShard() {
        DutyLeaseKey k = new DutyLeaseKey("t1", "order-expiry", 3);
        assertThat(k.pk()).isEqualTo("TEN#t1#LEASE#order-expiry#3");
        assertThat(k.sk()).isEqualTo("LEASE");
        assertThat(DutyLeaseKey.parse(k.pk(), k.sk())).isEqualTo(k);
        assertThatThrownBy(() -> new DutyLeaseKey("t1", "a#b", 0))
                .isInstanceOf(KeyFormatException.class);
    }
}
