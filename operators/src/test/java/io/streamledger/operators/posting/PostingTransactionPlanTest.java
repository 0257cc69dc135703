package io.streamledger.operators.posting;

import static org.assertj.core.api.Assertions.assertThat;

import io.streamledger.model.keys.InboxKey;
import io.streamledger.model.ledger.HouseAccounts;
import io.streamledger.model.ledger.PostingSequence;
import io.streamledger.model.ledger.RoundingPolicy;
import io.streamledger.model.shard.ShardMap;
import io.streamledger.model.shard.ShardMapState;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The posting transaction as plain data (AP09/AP10/AP12): order, conditions, sequences. */
class PostingTransactionPlanTest {

    private final FillPostingRules rules =
            new FillPostingRules(RoundingPolicy.DEFAULT, new HouseAccounts(4));
    private static final Instant NOW = Instant.parse("2026-11-30T10:00:01Z");
    private static final PostingTransactionPlan.ReceiptPolicy RECEIPTS =
            new PostingTransactionPlan.ReceiptPolicy("posting-job", Duration.ofDays(7));

    private PostingTransactionPlan plan(Map<String, PostingSequence.Counter> counters) {
        TradeFill fill = FillPostingRulesTest.fill("BUY", "10", "12.34", "1.00");
        PostingPlan p = rules.plan(fill);
        return PostingTransactionPlan.build(
                fill,
                p,
                counters,
                RECEIPTS,
                NOW,
                (a, l, e, t) -> 100,
                PostingSequence.MAX_POSTINGS_PER_MONTH);
    }

    private Map<String, PostingSequence.Counter> empty() {
        TradeFill fill = FillPostingRulesTest.fill("BUY", "10", "12.34", "1.00");
        Map<String, PostingSequence.Counter> c = new HashMap<>();
        for (String a : PostingTransactionPlan.accounts(rules.plan(fill))) {
            c.put(a, PostingSequence.Counter.EMPTY);
        }
        return c;
    }

    @Test
    void aFullAccountMonthIsABusinessRejectionNotAFailure() {
        TradeFill fill = FillPostingRulesTest.fill("BUY", "10", "12.34", "1.00");
        PostingPlan p = rules.plan(fill);
        Map<String, PostingSequence.Counter> counters = empty();
        String client = fill.getAccountId();
        counters.put(client, new PostingSequence.Counter(10, 0, 10, 0, 3));
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                PostingTransactionPlan.build(
                                        fill, p, counters, RECEIPTS, NOW, (a, l, e, t) -> 100, 10))
                .isInstanceOfSatisfying(
                        PostingRejectedException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(
                                                PostingRejectedException.Reason
                                                        .LEDGER_MONTH_LIMIT));
    }

    @Test
    void aTransactionOverFourMegabytesIsRejected() {
        TradeFill fill = FillPostingRulesTest.fill("BUY", "10", "12.34", "1.00");
        PostingPlan p = rules.plan(fill);
        org.assertj.core.api.Assertions.assertThatThrownBy(
                        () ->
                                PostingTransactionPlan.build(
                                        fill,
                                        p,
                                        empty(),
                                        RECEIPTS,
                                        NOW,
                                        (a, l, e, t) ->
                                                PostingTransactionPlan.MAX_TRANSACTION_BYTES,
                                        PostingSequence.MAX_POSTINGS_PER_MONTH))
                .isInstanceOfSatisfying(
                        PostingRejectedException.class,
                        e ->
                                assertThat(e.reason())
                                        .isEqualTo(
                                                PostingRejectedException.Reason
                                                        .TRANSACTION_TOO_LARGE));
    }

    @Test
    void receiptFirstThenPostingsInLineOrderThenCountersThenAuthorities() {
        PostingTransactionPlan tx = plan(empty());
        List<PostingTransactionPlan.Item> items = tx.items();
        assertThat(items.get(PostingTransactionPlan.RECEIPT_INDEX))
                .isInstanceOf(PostingTransactionPlan.Receipt.class);
        int lines = tx.plan().lines().size();
        assertThat(tx.postingsEnd()).isEqualTo(1 + lines);
        for (int i = 1; i < tx.postingsEnd(); i++) {
            assertThat(items.get(i)).isInstanceOf(PostingTransactionPlan.Posting.class);
            assertThat(((PostingTransactionPlan.Posting) items.get(i)).line().line()).isEqualTo(i);
        }
        int accounts = PostingTransactionPlan.accounts(tx.plan()).size();
        for (int i = tx.postingsEnd(); i < tx.postingsEnd() + accounts; i++) {
            assertThat(items.get(i)).isInstanceOf(PostingTransactionPlan.CounterWrite.class);
        }
        assertThat(items.subList(tx.postingsEnd() + accounts, items.size()))
                .hasSize(tx.plan().deltasByAuthority().size())
                .allMatch(i -> i instanceof PostingTransactionPlan.AuthorityAdd);
        PostingTransactionPlan.Receipt r = (PostingTransactionPlan.Receipt) items.get(0);
        assertThat(r.key().eventId()).isEqualTo("e-1");
        assertThat(r.expiresAtEpochSeconds())
                .isEqualTo(NOW.plus(Duration.ofDays(7)).getEpochSecond());
    }

    @Test
    void countersAreCreatedWhenEmptyAndComparedAndSetOtherwise() {
        PostingTransactionPlan first = plan(empty());
        assertThat(first.items())
                .filteredOn(i -> i instanceof PostingTransactionPlan.CounterWrite)
                .allMatch(i -> ((PostingTransactionPlan.CounterWrite) i).creates());
        PostingTransactionPlan second = plan(first.nextCounters());
        assertThat(second.items())
                .filteredOn(i -> i instanceof PostingTransactionPlan.CounterWrite)
                .allSatisfy(
                        i -> {
                            PostingTransactionPlan.CounterWrite c =
                                    (PostingTransactionPlan.CounterWrite) i;
                            assertThat(c.creates()).isFalse();
                            assertThat(c.before()).isEqualTo(first.nextCounters().get(c.account()));
                            assertThat(c.next().version()).isEqualTo(c.before().version() + 1);
                        });
        // a client account's sequence numbers continue where the previous fill left them
        assertThat(sequences(second, "acct-1").get(0))
                .isGreaterThan(
                        sequences(first, "acct-1").get(sequences(first, "acct-1").size() - 1));
    }

    private static List<Long> sequences(PostingTransactionPlan tx, String account) {
        return tx.items().stream()
                .filter(i -> i instanceof PostingTransactionPlan.Posting)
                .map(i -> (PostingTransactionPlan.Posting) i)
                .filter(p -> p.line().accountId().equals(account))
                .map(PostingTransactionPlan.Posting::sequence)
                .sorted()
                .toList();
    }

    @Test
    void duringAReshardTheReceiptFollowsTheRecordedAdmissionTimeAndChecksTheOtherVersion() {
        Instant watermark = NOW.plusSeconds(60);
        ShardMapState dual =
                ShardMapState.initial(ShardMap.INBOX)
                        .start(17, watermark, NOW, Duration.ofSeconds(30));
        TradeFill fill = FillPostingRulesTest.fill("BUY", "10", "12.34", "1.00");
        PostingPlan p = rules.plan(fill);
        for (long admitted : new long[] {watermark.toEpochMilli() - 1, watermark.toEpochMilli()}) {
            fill.setAdmittedAtMillis(admitted);
            PostingTransactionPlan tx =
                    PostingTransactionPlan.build(
                            fill, p, empty(), RECEIPTS, NOW, (a, l, e, t) -> 100, 1000, dual);
            ShardMap routed = dual.route(admitted);
            PostingTransactionPlan.Receipt r =
                    (PostingTransactionPlan.Receipt)
                            tx.items().get(PostingTransactionPlan.RECEIPT_INDEX);
            assertThat(r.key())
                    .isEqualTo(InboxKey.forEvent("posting-job", fill.getEventId(), routed));
            assertThat(r.admittedAtMillis()).isEqualTo(admitted);
            int last = tx.items().size() - 1;
            assertThat(tx.items().get(last))
                    .isEqualTo(
                            new PostingTransactionPlan.ReceiptAbsent(
                                    InboxKey.forEvent(
                                            "posting-job",
                                            fill.getEventId(),
                                            dual.alsoCheck(routed))));
            assertThat(tx.isReceiptCheck(last)).isTrue();
            assertThat(tx.isReceiptCheck(1)).isFalse();
        }
        // stable (no state item): the seed map and no extra check, as before any reshard
        PostingTransactionPlan stable = plan(empty());
        assertThat(stable.items())
                .noneMatch(i -> i instanceof PostingTransactionPlan.ReceiptAbsent);
        assertThat(((PostingTransactionPlan.Receipt) stable.items().get(0)).key().shardMapVersion())
                .isEqualTo(1);
    }
}
