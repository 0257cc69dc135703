package io.streamledger.command.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.deadletter.DeadLetterEntry;
import io.streamledger.aws.deadletter.DeadLetterItems;
import io.streamledger.aws.deadletter.DeadLetterRef;
import io.streamledger.aws.deadletter.DeadLetterView;
import io.streamledger.command.api.ApiException;
import io.streamledger.model.deadletter.DeadLetterReason;
import io.streamledger.model.deadletter.DeadLetterStatus;
import io.streamledger.model.keys.DeadLetterStatusKey;
import io.streamledger.model.table.Attr;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The operators' dead-letter repository against the local endpoint (CS08): every reason the jobs
 * write lands and is listed page by page, a repeat only counts attempts, show returns the whole
 * entry, discard and replay are conditional on status and version, audited, and never delete.
 */
class DeadLetterRepositoryITCase {

    private static final Instant T0 = Instant.parse("2026-12-01T08:00:00Z");
    private static final Instant NOW = Instant.parse("2026-12-01T09:30:00Z");

    private DeadLetterTable stack;
    private DeadLetterRepository repo;

    @BeforeEach
    void start() {
        stack = new DeadLetterTable("dlr");
        repo = new DeadLetterRepository(stack.ddb, stack.table, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterEach
    void stop() {
        stack.close();
    }

    private DeadLetterRef ref(DeadLetterEntry e) {
        return new DeadLetterRef(e.job(), e.reason(), e.id());
    }

    @Test
    void everyReasonIsListedPageByPageWithinOneTenantAndJob() {
        DeadLetterReason[] reasons = DeadLetterReason.values();
        for (int i = 0; i < reasons.length; i++) {
            stack.put("t1", "posting", reasons[i], "o" + i, T0.plusSeconds(i));
        }
        stack.put("t2", "posting", DeadLetterReason.REJECTED_FILL, "other-tenant", T0);
        stack.put("t1", "projection", DeadLetterReason.PARK_OVERFLOW, "other-job", T0);

        List<DeadLetterView> all = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            DeadLetterRepository.Page p = repo.list("t1", "posting", null, null, 3, cursor);
            assertThat(p.items()).hasSizeLessThanOrEqualTo(3);
            all.addAll(p.items());
            cursor = p.cursor();
            pages++;
        } while (cursor != null && pages < 10);

        assertThat(all).extracting(DeadLetterView::reason).containsExactlyInAnyOrder(reasons);
        assertThat(all).allSatisfy(v -> assertThat(v.tenant()).isEqualTo("t1"));
        assertThat(pages).isGreaterThanOrEqualTo(reasons.length / 3);
        assertThat(
                        repo.list("t1", "posting", DeadLetterReason.LATE_RECORD, null, null, null)
                                .items())
                .extracting(DeadLetterView::origin)
                .containsExactly("o" + DeadLetterReason.LATE_RECORD.ordinal());
    }

    @Test
    void aCursorCannotMoveTheListingToAnotherTenant() {
        for (int i = 0; i < 3; i++) {
            stack.put("t1", "posting", DeadLetterReason.REJECTED_FILL, "o" + i, T0);
        }
        String cursor = repo.list("t1", "posting", null, null, 1, null).cursor();
        assertThat(cursor).isNotNull();
        assertThatThrownBy(() -> repo.list("t2", "posting", null, null, 1, cursor))
                .isInstanceOf(ApiException.class)
                .hasMessageContaining("different query");
        assertThatThrownBy(() -> repo.list("t1", "posting", null, null, 101, null))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aRepeatAfterARestartCountsAttemptsOnTheSameEntry() {
        DeadLetterEntry e =
                stack.put("t1", "posting", DeadLetterReason.UNPARSEABLE_RECORD, "s/1/42", T0);
        stack.put(
                "t1", "posting", DeadLetterReason.UNPARSEABLE_RECORD, "s/1/42", T0.plusSeconds(60));

        DeadLetterView v = repo.show("t1", ref(e)).orElseThrow();
        assertThat(v.attempts()).isEqualTo(2);
        assertThat(v.firstSeen()).isEqualTo(T0);
        assertThat(v.lastSeen()).isEqualTo(T0.plusSeconds(60));
        assertThat(v.status()).isEqualTo(DeadLetterStatus.OPEN);
        assertThat(v.version()).isEqualTo(1);
        assertThat(v.operator()).isEqualTo("posting-op-v1");
        assertThat(v.payload()).isEqualTo("{\"raw\":\"s/1/42\"}");
        assertThat(v.sourcePosition()).isEqualTo("stream/shard-0/s/1/42");
        assertThat(v.aggregateKey()).isEqualTo("Account#A1");
        assertThat(v.aggregateVersion()).isEqualTo(3);
        assertThat(v.history()).isEmpty();
        assertThat(repo.list("t1", "posting", null, null, null, null).items()).hasSize(1);
    }

    @Test
    void discardIsConditionalAuditedAndKeepsTheEntry() {
        DeadLetterEntry e = stack.put("t1", "posting", DeadLetterReason.REJECTED_FILL, "ev-1", T0);
        assertThat(inOpenQueue("t1", e)).isTrue();

        DeadLetterRepository.Result stale = repo.discard("t1", ref(e), 7, "ops:alice", "dup");
        assertThat(stale.outcome()).isEqualTo(DeadLetterRepository.Outcome.CONFLICT);
        assertThat(stale.current().version()).isEqualTo(1);

        DeadLetterRepository.Result done =
                repo.discard("t1", ref(e), 1, "ops:alice", "test fill, never real");
        assertThat(done.outcome()).isEqualTo(DeadLetterRepository.Outcome.DONE);

        DeadLetterView v = repo.show("t1", ref(e)).orElseThrow();
        assertThat(v.status()).isEqualTo(DeadLetterStatus.DISCARDED);
        assertThat(v.version()).isEqualTo(2);
        assertThat(v.payload()).isEqualTo("{\"raw\":\"ev-1\"}");
        assertThat(v.history())
                .containsExactly(
                        new DeadLetterView.Change(
                                NOW,
                                "ops:alice",
                                "DISCARD",
                                DeadLetterStatus.OPEN,
                                DeadLetterStatus.DISCARDED,
                                1,
                                "test fill, never real"));
        assertThat(inOpenQueue("t1", e)).isFalse();
        assertThat(repo.list("t1", "posting", null, DeadLetterStatus.DISCARDED, null, null).items())
                .hasSize(1);
        assertThat(repo.replay("t1", ref(e), null, "ops:bob", null).outcome())
                .isEqualTo(DeadLetterRepository.Outcome.CONFLICT);
        assertThat(repo.discard("t2", ref(e), 1, "ops:eve", "x").outcome())
                .isEqualTo(DeadLetterRepository.Outcome.NOT_FOUND);
    }

    @Test
    void replayRequestLeavesTheOpenQueueOnceOnly() {
        DeadLetterEntry e = stack.put("t1", "posting", DeadLetterReason.REJECTED_FILL, "ev-2", T0);
        DeadLetterRepository.Result first = repo.replay("t1", ref(e), null, "ops:bob", "fixed");
        assertThat(first.outcome()).isEqualTo(DeadLetterRepository.Outcome.DONE);
        assertThat(first.current().status()).isEqualTo(DeadLetterStatus.REPLAY_REQUESTED);
        assertThat(first.current().version()).isEqualTo(2);
        assertThat(inOpenQueue("t1", e)).isFalse();

        DeadLetterRepository.Result again = repo.replay("t1", ref(e), 1L, "ops:bob", "again");
        assertThat(again.outcome()).isEqualTo(DeadLetterRepository.Outcome.CONFLICT);
        assertThat(repo.show("t1", ref(e)).orElseThrow().history()).hasSize(1);
    }

    @Test
    void aParkedReplayCanBeAskedAgainButNotDiscarded() {
        DeadLetterEntry e =
                stack.put("t1", "posting", DeadLetterReason.UNPARSEABLE_RECORD, "ev-3", T0);
        repo.replay("t1", ref(e), null, "ops:bob", "fixed");
        stack.ddb.updateItem(
                DeadLetterItems.replayParked(
                        stack.table,
                        ref(e).key("t1"),
                        2,
                        "posting",
                        "behind gap posting:g1 of t1/A1: waits for version 4 (this is version 6)",
                        NOW));
        assertThat(repo.show("t1", ref(e)).orElseThrow().status())
                .isEqualTo(DeadLetterStatus.REPLAY_PARKED);

        assertThat(repo.discard("t1", ref(e), 3, "ops:eve", "no").outcome())
                .isEqualTo(DeadLetterRepository.Outcome.CONFLICT);
        DeadLetterRepository.Result again =
                repo.replay("t1", ref(e), 3L, "ops:bob", "gate lost it");
        assertThat(again.outcome()).isEqualTo(DeadLetterRepository.Outcome.DONE);
        assertThat(again.current().status()).isEqualTo(DeadLetterStatus.REPLAY_REQUESTED);
        assertThat(again.current().version()).isEqualTo(4);
        assertThat(again.current().history().get(2).fromStatus())
                .isEqualTo(DeadLetterStatus.REPLAY_PARKED);
    }

    @Test
    void aLateRecordIsRefusedItsReplayAndTheRefusalChangesNothing() {
        DeadLetterEntry e =
                stack.put("t1", "reconciliation", DeadLetterReason.LATE_RECORD, "late-1", T0);
        DeadLetterRepository.Result r = repo.replay("t1", ref(e), null, "ops:bob", null);
        assertThat(r.outcome()).isEqualTo(DeadLetterRepository.Outcome.NOT_REPLAYABLE);
        assertThat(r.current().status()).isEqualTo(DeadLetterStatus.OPEN);
        assertThat(r.current().version()).isEqualTo(1);
        assertThat(r.current().history()).isEmpty();
        assertThat(inOpenQueue("t1", e)).isTrue();
    }

    private boolean inOpenQueue(String tenant, DeadLetterEntry e) {
        for (int shard = 0; shard < DeadLetterStatusKey.SHARDS; shard++) {
            String pk =
                    DeadLetterStatusKey.PK.build(
                            tenant,
                            "OPEN",
                            io.streamledger.model.keys.KeyFields.shard("shard", shard));
            List<Map<String, AttributeValue>> items =
                    stack.ddb
                            .query(
                                    q ->
                                            q.tableName(stack.table)
                                                    .indexName("GSI1")
                                                    .keyConditionExpression("#p = :p")
                                                    .expressionAttributeNames(
                                                            Map.of("#p", Attr.GSI1PK))
                                                    .expressionAttributeValues(
                                                            Map.of(":p", AttributeValue.fromS(pk))))
                            .items();
            if (items.stream().anyMatch(i -> i.get(Attr.SK).s().endsWith(e.id()))) {
                return true;
            }
        }
        return false;
    }
}
