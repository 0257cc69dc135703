package io.streamledger.aws.items;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.keys.BreakDueKey;
import io.streamledger.model.shard.ShardHash;
import java.time.Instant;
import java.time.LocalDate;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/** AP15/AP14 item shapes: IDX14 key, IDX15 sparse queue keys, shard from the seed hash, IDX13. */
class BreakItemsTest {

    private static final Instant DETECTED = Instant.parse("2026-11-30T10:00:00Z");
    private static final Instant DUE = Instant.parse("2026-12-01T10:00:00Z");

    private static BreakItems.NewBreak detected() {
        return new BreakItems.NewBreak(
                "t1",
                "B1",
                "X:1",
                "TXN_UNBALANCED",
                "LEDGER_CHECK",
                "x",
                "finance-ops",
                DETECTED,
                DUE,
                "{}");
    }

    @Test
    void newBreakIsOpenWithDueQueueKeysOnTheSeedShard() {
        Map<String, AttributeValue> key = BreakItems.key("t1", "B1", "X:1");
        assertThat(key.get("PK").s()).isEqualTo("TEN#t1#RECON#B1");
        assertThat(key.get("SK").s()).isEqualTo("BREAK#X:1");
        Map<String, AttributeValue> a = BreakItems.attributes(detected());
        int shard = (int) Long.remainderUnsigned(ShardHash.hash64("B1/X:1"), 4);
        assertThat(a.get("shard").n()).isEqualTo(Integer.toString(shard));
        BreakDueKey due = BreakDueKey.parse(a.get("GSI1PK").s(), a.get("GSI1SK").s());
        assertThat(due.status()).isEqualTo("OPEN");
        assertThat(due.shard()).isEqualTo(shard);
        assertThat(due.dueAt()).isEqualTo(DUE);
        assertThat(a.get("dueAt").s()).isEqualTo("2026-12-01T10:00:00.000Z");
        assertThat(a.get("status").s()).isEqualTo("OPEN");
        assertThat(a.get("owner").s()).isEqualTo("finance-ops");
        assertThat(a.get("hashVersion").n()).isEqualTo("1");
        assertThat(a.get("shardMapVersion").n()).isEqualTo("1");
        assertThat(a.get("entityType").s()).isEqualTo(BreakItems.ENTITY);
    }

    @Test
    void aStoredBreakDecodesToItsView() {
        Map<String, AttributeValue> item = new HashMap<>(BreakItems.attributes(detected()));
        item.put("version", AttributeValue.fromN("3"));
        item.put(BreakItems.A_RESOLVED_BY, AttributeValue.fromS("alice"));
        BreakView v = BreakItems.view(item);
        assertThat(v.status()).isEqualTo(BreakStatus.OPEN);
        assertThat(v.version()).isEqualTo(3);
        assertThat(v.origin()).isEqualTo("LEDGER_CHECK");
        assertThat(v.detectedAt()).isEqualTo("2026-11-30T10:00:00.000Z");
        assertThat(v.resolvedBy()).isEqualTo("alice");
        assertThat(v.resolvedAt()).isNull();
        assertThat(BreakStatus.RESOLVED.queued()).isFalse();
    }

    @Test
    void batchItemCarriesWindowTotalsAndState() {
        BatchItems.Batch b =
                new BatchItems.Batch(
                        "t1",
                        LocalDate.parse("2026-11-30"),
                        "RECON-1",
                        Instant.parse("2026-11-30T10:00:00Z"),
                        Instant.parse("2026-11-30T10:05:00Z"),
                        60_000,
                        "m",
                        "c",
                        "MATCHED",
                        true,
                        0);
        assertThat(BatchItems.key(b).get("PK").s()).isEqualTo("TEN#t1#RECON#2026-11-30");
        assertThat(BatchItems.key(b).get("SK").s()).isEqualTo("BATCH#RECON-1");
        Map<String, AttributeValue> a = BatchItems.attributes(b);
        assertThat(a.get("state").s()).isEqualTo("CLOSED");
        assertThat(a.get("windowEnd").s()).isEqualTo("2026-11-30T10:05:00Z");
        assertThat(a.get("allowedLatenessMillis").n()).isEqualTo("60000");
        assertThat(a.get("breakCount").n()).isEqualTo("0");
        assertThat(a.get("entityType").s()).isEqualTo("BATCH");
    }
}
