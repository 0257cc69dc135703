package io.streamledger.command.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.streamledger.aws.items.BreakStatus;
import io.streamledger.aws.items.BreakView;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * AP15 on the local endpoint: one merged cursor over all status shards of the sparse due queue,
 * strong show, conditional resolve (status + version + resolver + evidence) that leaves the queue,
 * escalation of overdue breaks.
 */
class BreakRepositoryITCase {

    private static final Instant NOW = Instant.parse("2026-11-30T12:00:00Z");

    private BreakTable stack;
    private BreakRepository repo;

    @BeforeEach
    void start() {
        stack = new BreakTable("br");
        repo = new BreakRepository(stack.ddb, stack.table, Clock.fixed(NOW, ZoneOffset.UTC));
    }

    @AfterEach
    void stop() {
        stack.close();
    }

    private void put(String tenant, String batch, String id, Instant detected) {
        stack.put(
                tenant,
                batch,
                id,
                "TXN_UNBALANCED",
                "LEDGER_CHECK",
                detected,
                "txn " + id,
                "{\"reason\":\"TXN_UNBALANCED\"}");
    }

    @Test
    void listsDueBreaksAcrossShardsInDueBatchIdOrderWithOneCursor() {
        List<String> expected = new ArrayList<>();
        List<String[]> all = new ArrayList<>();
        for (int i = 0; i < 37; i++) {
            String batch = i % 2 == 0 ? "B-A" : "B-B";
            // several breaks share a due time so the tie-break (batch, id) is exercised
            Instant detected = NOW.minus(Duration.ofHours(3)).plusSeconds(60L * (i / 3));
            String id = "id" + (100 + i);
            put("t1", batch, id, detected);
            all.add(new String[] {detected.plus(Duration.ofHours(1)).toString(), batch, id});
        }
        put("t1", "B-A", "future", NOW.plus(Duration.ofHours(2))); // not due yet
        put("t2", "B-A", "other-tenant", NOW.minus(Duration.ofHours(3)));
        all.sort(
                Comparator.comparing((String[] a) -> a[0])
                        .thenComparing(a -> a[1])
                        .thenComparing(a -> a[2]));
        all.forEach(a -> expected.add(a[1] + "/" + a[2]));

        List<String> seen = new ArrayList<>();
        String cursor = null;
        int pages = 0;
        do {
            BreakRepository.Page p = repo.listDue("t1", NOW, cursor, 7);
            assertThat(p.items().size()).isLessThanOrEqualTo(7);
            p.items().forEach(d -> seen.add(d.batchId() + "/" + d.breakId()));
            cursor = p.cursor();
            pages++;
        } while (cursor != null);
        assertThat(seen).containsExactlyElementsOf(expected);
        assertThat(pages).isBetween(6, 7);
        // break ids spread over the 4 shards
        assertThat(
                        repo.listDue("t1", NOW, null, 100).items().stream()
                                .map(DueBreak::shard)
                                .distinct()
                                .count())
                .isEqualTo(4);
    }

    @Test
    void aCursorOfAnotherListingIsRejected() {
        put("t1", "B", "a", NOW.minus(Duration.ofHours(2)));
        put("t1", "B", "b", NOW.minus(Duration.ofHours(2)));
        String cursor = repo.listDue("t1", NOW, null, 1).cursor();
        assertThat(cursor).isNotNull();
        assertThatThrownBy(() -> repo.listDue("t2", NOW, cursor, 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("another tenant");
        assertThatThrownBy(() -> repo.listDue("t1", NOW, "%%%", 1))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("invalid cursor");
    }

    @Test
    void resolveIsConditionalOnStatusAndVersionAndLeavesTheQueue() {
        put("t1", "B", "x", NOW.minus(Duration.ofHours(2)));
        BreakView shown = repo.get("t1", "B", "x").orElseThrow();
        assertThat(shown.status()).isEqualTo(BreakStatus.OPEN);
        assertThat(shown.version()).isEqualTo(1);
        assertThat(shown.evidence()).contains("TXN_UNBALANCED");

        BreakRepository.Result stale =
                repo.resolve("t1", "B", "x", BreakStatus.OPEN, 7, "alice", "matched manually");
        assertThat(stale.outcome()).isEqualTo(BreakRepository.Outcome.CONFLICT);
        assertThat(stale.current().version()).isEqualTo(1);

        BreakRepository.Result ok =
                repo.resolve("t1", "B", "x", BreakStatus.OPEN, 1, "alice", "reversal txn r-9");
        assertThat(ok.outcome()).isEqualTo(BreakRepository.Outcome.DONE);
        BreakView after = repo.get("t1", "B", "x").orElseThrow();
        assertThat(after.status()).isEqualTo(BreakStatus.RESOLVED);
        assertThat(after.version()).isEqualTo(2);
        assertThat(after.resolvedBy()).isEqualTo("alice");
        assertThat(after.resolutionEvidence()).isEqualTo("reversal txn r-9");
        assertThat(repo.listDue("t1", NOW, null, 10).items()).isEmpty();
        Map<String, AttributeValue> raw =
                stack.breaks().stream()
                        .filter(r -> r.get("breakId").s().equals("x"))
                        .findFirst()
                        .orElseThrow();
        assertThat(raw).doesNotContainKeys("GSI1PK", "GSI1SK");

        assertThat(repo.resolve("t1", "B", "x", BreakStatus.OPEN, 1, "bob", "again").outcome())
                .isEqualTo(BreakRepository.Outcome.CONFLICT);
        assertThat(repo.resolve("t1", "B", "nope", BreakStatus.OPEN, 1, "bob", "e").outcome())
                .isEqualTo(BreakRepository.Outcome.NOT_FOUND);
        assertThatThrownBy(() -> repo.resolve("t1", "B", "x", BreakStatus.OPEN, 2, " ", "e"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void overdueOpenBreaksAreEscalatedAndStayInTheQueue() {
        put("t1", "B", "late", NOW.minus(Duration.ofHours(2))); // due an hour ago
        put("t1", "B", "fresh", NOW); // due in an hour
        assertThat(repo.escalateOverdue("t1", "ops-lead")).isEqualTo(1);
        BreakView late = repo.get("t1", "B", "late").orElseThrow();
        assertThat(late.status()).isEqualTo(BreakStatus.ESCALATED);
        assertThat(late.owner()).isEqualTo("ops-lead");
        assertThat(late.version()).isEqualTo(2);
        assertThat(repo.get("t1", "B", "fresh").orElseThrow().status()).isEqualTo(BreakStatus.OPEN);
        List<DueBreak> due = repo.listDue("t1", NOW, null, 10).items();
        assertThat(due).extracting(DueBreak::status).containsExactly("ESCALATED");
        assertThat(repo.escalateOverdue("t1", "ops-lead")).isZero();
        assertThat(
                        repo.resolve("t1", "B", "late", BreakStatus.ESCALATED, 2, "carol", "fixed")
                                .outcome())
                .isEqualTo(BreakRepository.Outcome.DONE);
    }

    @Test
    void escalationIsBoundedPerCallAndTheRestFollowsOnTheNextCalls() {
        for (int i = 0; i < 12; i++) {
            put("t1", "B", "o" + i, NOW.minus(Duration.ofHours(2)).plusSeconds(i));
        }
        put("t1", "B", "fresh", NOW);
        BreakRepository bounded =
                new BreakRepository(stack.ddb, stack.table, Clock.fixed(NOW, ZoneOffset.UTC), 5);
        assertThat(bounded.escalateOverdue("t1", "ops-lead")).isEqualTo(5);
        assertThat(bounded.escalateOverdue("t1", "ops-lead")).isEqualTo(5);
        assertThat(bounded.escalateOverdue("t1", "ops-lead")).isEqualTo(2);
        assertThat(bounded.escalateOverdue("t1", "ops-lead")).isZero();
        assertThat(repo.listDue("t1", NOW, null, 20).items())
                .extracting(DueBreak::status)
                .hasSize(12)
                .containsOnly("ESCALATED");
        assertThat(repo.get("t1", "B", "fresh").orElseThrow().status()).isEqualTo(BreakStatus.OPEN);
        assertThatThrownBy(
                        () ->
                                new BreakRepository(
                                        stack.ddb,
                                        stack.table,
                                        Clock.systemUTC(),
                                        BreakRepository.MAX_ESCALATIONS_PER_CALL + 1))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
