package io.streamledger.aws.deadletter;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.model.keys.DeadLetterStatusKey;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/** CS08 status queues: OPEN and REPLAY_REQUESTED entries are queued, settled ones are not. */
class DeadLetterItemsTest {

    private static final DeadLetterKey KEY =
            new DeadLetterKey("t1", "posting", "QUARANTINED", "x1");
    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");

    private static UpdateItemRequest to(DeadLetterStatus from, DeadLetterStatus to) {
        return DeadLetterItems.transition("DLQ", KEY, from, 1, to, "A", "ops:a", null, AT);
    }

    @Test
    void aReplayRequestMovesTheEntryIntoTheReplayQueueOfItsTenant() {
        UpdateItemRequest r = to(DeadLetterStatus.OPEN, DeadLetterStatus.REPLAY_REQUESTED);
        int shard = DeadLetterItems.shardOf("posting", "x1");
        DeadLetterStatusKey q =
                new DeadLetterStatusKey("t1", "REPLAY_REQUESTED", shard, AT, "posting", "x1");
        assertThat(r.updateExpression()).contains("#g1pk = :qpk").doesNotContain("REMOVE");
        assertThat(r.expressionAttributeValues().get(":qpk").s()).isEqualTo(q.pk());
        assertThat(r.expressionAttributeValues().get(":qsk").s()).isEqualTo(q.sk());
        assertThat(r.conditionExpression()).isEqualTo("#st = :from AND #v = :expected");
    }

    @Test
    void aFailedReplayReturnsToTheOpenQueueAndSettledEntriesLeaveEveryQueue() {
        UpdateItemRequest back = to(DeadLetterStatus.REPLAY_REQUESTED, DeadLetterStatus.OPEN);
        assertThat(back.expressionAttributeValues().get(":qpk").s())
                .startsWith("TEN#t1#DLQ#STATUS#OPEN#");
        for (DeadLetterStatus settled :
                new DeadLetterStatus[] {DeadLetterStatus.REPLAYED, DeadLetterStatus.DISCARDED}) {
            UpdateItemRequest r = to(DeadLetterStatus.REPLAY_REQUESTED, settled);
            assertThat(r.updateExpression()).endsWith("REMOVE #g1pk, #g1sk");
            assertThat(r.expressionAttributeValues()).doesNotContainKeys(":qpk", ":qsk");
        }
    }

    @Test
    void aReplaySettleCountsOneAttemptOnlyWhenNoUpsertCountedIt() {
        UpdateItemRequest failed =
                DeadLetterItems.settleReplay("DLQ", KEY, 4, false, false, "job:p", "still", AT);
        assertThat(failed.expressionAttributeValues().get(":to").s()).isEqualTo("OPEN");
        assertThat(failed.updateExpression()).endsWith("ADD #attempts :one");
        assertThat(failed.expressionAttributeNames()).containsEntry("#attempts", "attempts");
        assertThat(failed.expressionAttributeValues().get(":expected").n()).isEqualTo("4");
        assertThat(failed.expressionAttributeValues().get(":from").s())
                .isEqualTo("REPLAY_REQUESTED");

        UpdateItemRequest counted =
                DeadLetterItems.settleReplay("DLQ", KEY, 4, false, true, "job:p", "again", AT);
        assertThat(counted.updateExpression()).doesNotContain("#attempts");
        assertThat(counted.expressionAttributeValues().get(":to").s()).isEqualTo("OPEN");

        UpdateItemRequest replayed =
                DeadLetterItems.settleReplay("DLQ", KEY, 4, true, false, "job:p", "APPLIED", AT);
        assertThat(replayed.expressionAttributeValues().get(":to").s()).isEqualTo("REPLAYED");
        assertThat(replayed.updateExpression()).doesNotContain("#attempts");
    }
}
