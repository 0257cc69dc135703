package io.streamledger.aws.deadletter;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.keys.DeadLetterKey;
import io.streamledger.model.keys.DeadLetterStatusKey;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

/**
 * CS08 status queues and replay settles: OPEN and REPLAY_REQUESTED entries are queued, parked and
 * settled ones are not; a replay settles from REPLAY_REQUESTED or from the version its park left.
 */
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

    @Test
    void aParkedReplayLeavesEveryQueueWithoutAnAttemptAndSettlesFromItsParkedVersion() {
        UpdateItemRequest park =
                DeadLetterItems.replayParked("DLQ", KEY, 4, "job:p", "behind gap p:g1", AT);
        assertThat(park.conditionExpression()).isEqualTo("#st = :from AND #v = :expected");
        assertThat(park.expressionAttributeValues().get(":from").s()).isEqualTo("REPLAY_REQUESTED");
        assertThat(park.expressionAttributeValues().get(":expected").n()).isEqualTo("4");
        assertThat(park.expressionAttributeValues().get(":to").s()).isEqualTo("REPLAY_PARKED");
        assertThat(park.updateExpression())
                .contains("#v = #v + :one")
                .endsWith("REMOVE #g1pk, #g1sk")
                .doesNotContain("#attempts");
        assertThat(DeadLetterItems.queued(DeadLetterStatus.REPLAY_PARKED)).isFalse();

        // an outcome tries the requested version first, then the one the park left
        List<UpdateItemRequest> settle =
                DeadLetterItems.settleReplayRequests(
                        "DLQ", KEY, 4, false, false, "job:p", "PARK_OVERFLOW: full", AT);
        assertThat(settle)
                .extracting(
                        r -> r.expressionAttributeValues().get(":from").s(),
                        r -> r.expressionAttributeValues().get(":expected").n(),
                        r -> r.expressionAttributeValues().get(":to").s())
                .containsExactly(
                        tuple("REPLAY_REQUESTED", "4", "OPEN"),
                        tuple("REPLAY_PARKED", "5", "OPEN"));
        assertThat(settle)
                .allSatisfy(r -> assertThat(r.updateExpression()).endsWith("ADD #attempts :one"));
        assertThat(DeadLetterItems.parkedVersion(4)).isEqualTo(5);
    }

    @Test
    void theFirstSettleWhoseConditionHoldsIsTheOnlyOneSent() {
        List<UpdateItemRequest> settle =
                DeadLetterItems.settleReplayRequests(
                        "DLQ", KEY, 4, true, false, "job:p", "APPLIED", AT);
        List<UpdateItemRequest> sent = new ArrayList<>();
        assertThat(DeadLetterItems.settleFirst(settle, r -> sent.add(r) && false)).isFalse();
        assertThat(sent).containsExactlyElementsOf(settle);
        sent.clear();
        assertThat(DeadLetterItems.settleFirst(settle, sent::add)).isTrue();
        assertThat(sent).containsExactly(settle.get(0));
    }

    @Test
    void aParkedEntryShowsWhatItIsParkedBehindAndNoOtherStatusDoes() {
        DeadLetterView.Change requested =
                new DeadLetterView.Change(
                        AT,
                        "ops:a",
                        "REPLAY",
                        DeadLetterStatus.OPEN,
                        DeadLetterStatus.REPLAY_REQUESTED,
                        1,
                        "");
        DeadLetterView.Change parked =
                new DeadLetterView.Change(
                        AT,
                        "job:p",
                        "REPLAY_PARKED",
                        DeadLetterStatus.REPLAY_REQUESTED,
                        DeadLetterStatus.REPLAY_PARKED,
                        2,
                        "behind gap p:g1 of t1/a: waits for version 2 (this is version 3)");
        assertThat(view(DeadLetterStatus.REPLAY_PARKED, List.of(requested, parked)).parkedBehind())
                .isEqualTo("behind gap p:g1 of t1/a: waits for version 2 (this is version 3)");
        assertThat(view(DeadLetterStatus.REPLAY_REQUESTED, List.of(requested)).parkedBehind())
                .isNull();
    }

    private static DeadLetterView view(DeadLetterStatus status, List<DeadLetterView.Change> h) {
        return new DeadLetterView(
                "t1",
                "posting",
                "op",
                DeadLetterReason.QUARANTINED,
                "x1",
                "",
                "",
                "json",
                "event:e",
                null,
                null,
                0,
                AT,
                AT,
                1,
                status,
                h.size() + 1,
                h);
    }
}
